#pragma once

class QMenu;
class QWidget;

namespace ascope {

class Exportable;

/// The export entries every plot's context menu ends with: "Export as PNG/PDF/SVG…" (size dialog,
/// then a file dialog) and "Export data as CSV…". Failures are shown to the user, not thrown.
class ExportMenu {
 public:
  static void addActions(QMenu* menu, Exportable* target, QWidget* dialog_parent);

  static void exportImageInteractively(Exportable* target, QWidget* dialog_parent);
  static void exportCsvInteractively(const Exportable* target, QWidget* dialog_parent);
};

}  // namespace ascope
