#include "app/gui/window/main/help_actions.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

#include "app/version.h"

namespace ascope {
namespace {

QString plainHelpText(QString text) {
  text.remove(QLatin1Char('&'));
  text.remove(QStringLiteral("…"));
  return text.trimmed();
}

QString row(const QString& keys, const QString& what) {
  return QStringLiteral("<tr><td style='padding-right:18px'><b>%1</b></td><td>%2</td></tr>")
      .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
}

void listMenu(const QMenu* menu, QStringList& rows) {
  QStringList own;
  for (const QAction* action : menu->actions()) {
    if (action->menu() != nullptr) {
      listMenu(action->menu(), rows);
      continue;
    }
    if (action->shortcuts().isEmpty() || !action->isVisible()) continue;
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts())
      keys << key.toString(QKeySequence::NativeText);
    own << row(keys.join(QStringLiteral(", ")), plainHelpText(action->text()));
  }
  if (own.isEmpty()) return;
  rows << QStringLiteral("<tr><td colspan='2'><h4 style='margin:10px 0 2px 0'>%1</h4></td></tr>")
              .arg(plainHelpText(menu->title()).toHtmlEscaped());
  rows << own;
}

}  // namespace

HelpActions::HelpActions(QMainWindow* window) : QObject(window), window_(window) {}

void HelpActions::fillMenu(QMenu* help) {
  QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, &HelpActions::showShortcuts);
  keys->setObjectName(QStringLiteral("keyboardShortcutsAction"));
  keys->setShortcut(QKeySequence(Qt::Key_F1));
  QAction* guide =
      help->addAction(tr("Your &first lecture…"), this, &HelpActions::showFirstLecture);
  guide->setObjectName(QStringLiteral("firstLectureAction"));
  help->addSeparator();
  help->addAction(tr("&About AttentionScope"), this, &HelpActions::showAbout);
}

QString HelpActions::shortcutsHtml(const QMenuBar* menus) {
  QStringList rows;
  for (const QAction* action : menus->actions()) {
    if (action->menu() != nullptr) listMenu(action->menu(), rows);
  }
  // Keys a panel takes while it has the keyboard focus: they are no menu's.
  rows << QStringLiteral("<tr><td colspan='2'><h4 style='margin:10px 0 2px 0'>%1</h4></td></tr>")
              .arg(tr("In a panel with the keyboard focus"));
  rows << row(tr("← / →"), tr("Attention: previous / next head"));
  rows << row(tr("↑ / ↓, PgUp / PgDn"), tr("Attention: previous / next layer"));
  rows << row(tr("← / →, Home / End"), tr("Decoding: previous / next token, first / last"));
  rows << row(tr("H, R"), tr("Attention: hide the enlarged head so the class guesses first; reveal "
                             "it with the guess scored"));
  rows << row(tr("Arrows, Space, + / −"),
              tr("While the class guesses: move the cursor, mark its cell, add / remove votes"));
  rows << row(tr("Q"), tr("While the class guesses: the cursor's row only, or the whole head"));
  rows << row(tr("H"), tr("End the guessing round: the head as usual"));
  rows << row(tr("Mouse wheel, drag"), tr("Curves and enlarged head: zoom, pan"));
  rows << row(tr("Double-click a dock's title"), tr("That dock alone; Esc brings the layout back"));
  rows << row(tr("Esc"), tr("Back to the run (an asked input, a dock alone)"));
  rows << row(tr("Space, Esc in a text field"),
              tr("The field keeps Space; Esc gives the keyboard back to the window, where Space "
                 "pauses and resumes again (it never presses a focused button)"));
  rows << QStringLiteral("<tr><td colspan='2'><h4 style='margin:10px 0 2px 0'>%1</h4></td></tr>")
              .arg(tr("While a lesson is open"));
  rows << row(tr("Page Down / Page Up"),
              tr("Next / previous moment, wherever the focus is (a presenter's clicker sends "
                 "them); text fields and dialogs keep them"));
  return QStringLiteral("<table cellspacing='2'>%1</table>").arg(rows.join(QString()));
}

QString HelpActions::firstLectureHtml() {
  QFile file(QStringLiteral(":/help/first_lecture.html"));
  if (!file.open(QIODevice::ReadOnly)) return tr("The guide is missing from this build.");
  return QString::fromUtf8(file.readAll());
}

void HelpActions::showPage(const QString& title, const QString& html, const QString& object_name) {
  auto* dialog = new QDialog(window_);
  dialog->setObjectName(object_name);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(title);
  auto* text = new QTextBrowser(dialog);
  text->setOpenExternalLinks(false);
  text->setHtml(html);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(text);
  layout->addWidget(buttons);
  // Sized for the text at the window's font, within the window (a projector at 150 % included).
  const QSize room = window_->size() * 0.8;
  dialog->resize(std::min(room.width(), dialog->fontMetrics().averageCharWidth() * 90),
                 room.height());
  dialog->show();
}

void HelpActions::showShortcuts() {
  showPage(tr("Keyboard shortcuts"), shortcutsHtml(window_->menuBar()),
           QStringLiteral("keyboardShortcutsDialog"));
}

void HelpActions::showFirstLecture() {
  showPage(tr("Your first lecture"), firstLectureHtml(), QStringLiteral("firstLectureDialog"));
}

QString HelpActions::aboutHtml() {
  return tr("<h3>AttentionScope %1</h3><p>Train transformers live and watch what "
            "their attention does.</p><p>Help → Keyboard shortcuts (F1) lists every "
            "key; Help → Your first lecture is a ten-minute start.</p>")
      .arg(QString::fromLatin1(kVersion));
}

void HelpActions::showAbout() {
  QMessageBox::about(window_, tr("About AttentionScope"), aboutHtml());
}

}  // namespace ascope
