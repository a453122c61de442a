#pragma once
// File → Export for students…: where the handout goes and how large it may be.
#include <QDialog>

class QDoubleSpinBox;
class QLineEdit;

namespace ascope {

class HandoutExportDialog : public QDialog {
  Q_OBJECT

 public:
  HandoutExportDialog(const QString& path, double max_mb, QWidget* parent = nullptr);

  QString path() const;
  double maxMb() const;
  QLineEdit* pathEdit() const { return path_; }
  QDoubleSpinBox* sizeBox() const { return size_; }

 private:
  QLineEdit* path_ = nullptr;
  QDoubleSpinBox* size_ = nullptr;
};

}  // namespace ascope
