// attentionscope: the desktop app. See app_options.h for the command line (scripted mode).
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QTimer>

#include <clocale>
#include <cstdio>

#include "app/gui/views/run/run_presenter.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/layout/window_placement.h"
#include "app/gui/window/lecture/dark_palette.h"
#include "app/gui/window/main/main_window.h"
#include "app/gui/window/scripted/app_options.h"
#include "app/gui/window/scripted/main_window_scripting.h"
#include "app/gui/window/scripted/scripted_run.h"
#include "app/version.h"
#include "engine/core/cpu_runtime.h"
#include "engine/core/openblas_kernels.h"
#include "engine/train/tensor_threads.h"

namespace {

QtMessageHandler previous_handler = nullptr;

/// Drops one harmless warning the offscreen platform prints for every dock (scripted runs and
/// tests use it), and passes everything else on.
void filterMessages(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (message == QLatin1String("This plugin does not support propagateSizeHints()")) return;
  if (previous_handler) previous_handler(type, context, message);
}

/// --help, --version (or a usage error) need no window: answered before QApplication, which
/// without a display would abort the program before it could print a word.
bool wantsHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const QLatin1String arg(argv[i]);
    if (arg == QLatin1String("--help") || arg == QLatin1String("-h") ||
        arg == QLatin1String("--help-all") || arg == QLatin1String("-?") ||
        arg == QLatin1String("--version"))
      return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (wantsHelp(argc, argv)) {
    const QCoreApplication core(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("attentionscope"));
    QString error;
    bool answered = false;
    ascope::AppOptions::parse(QCoreApplication::arguments(), &error, &answered);
    if (answered) return 0;
    std::fprintf(stderr, "attentionscope: %s (see attentionscope --help)\n", qPrintable(error));
    return 2;
  }
  ascope::relaunchWithMatchingOpenBlasKernels(argv);
  ascope::tuneCpuRuntime();
  ascope::useTensorThreads(0);  // --threads may change it for a run
  previous_handler = qInstallMessageHandler(filterMessages);
  // Fractional scale factors (125 %, 150 %) render crisp instead of rounded.
  QGuiApplication::setHighDpiScaleFactorRoundingPolicy(
      Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
  QApplication app(argc, argv);
  // QApplication set the C library's locale from the environment: under a decimal-comma locale
  // snprintf and strtod (here and in libraries) would write and want "0,5". The run folder's
  // files are written locale-free anyway; numbers in every other text stay as the CLI's.
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setApplicationName(QStringLiteral("AttentionScope"));
  QApplication::setOrganizationName(QStringLiteral("AttentionScope"));
  QApplication::setApplicationVersion(QString::fromLatin1(ascope::kVersion));
  QApplication::setDesktopFileName(QStringLiteral("org.attentionscope.AttentionScope"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/attentionscope.svg")));

  QString error;
  bool answered = false;
  const std::optional<ascope::AppOptions> options =
      ascope::AppOptions::parse(QApplication::arguments(), &error, &answered);
  if (!options) {
    if (answered) return 0;
    std::fprintf(stderr, "attentionscope: %s (see attentionscope --help)\n", qPrintable(error));
    return 2;
  }
  if (options->dark) QApplication::setPalette(ascope::darkPalette());

  ascope::MainWindow window;
  const bool restored = !options->scripted() && window.setInteractive();
  if (!restored) window.resize(options->size);
  // A person's window keeps its title and status bar on a small screen (scripted: --size as given).
  if (!options->scripted()) ascope::fitWindowIntoScreen(&window);
  window.show();
  if (!restored) window.dockLayout()->resetLayout();  // dock proportions for the shown size
  window.runPanel()->taskBox()->setFocus();

  ascope::MainWindowScripting scripting(&window);
  ascope::ScriptedRun script(&scripting, *options);
  QObject::connect(&script, &ascope::ScriptedRun::finished, &app, [&](int code) {
    if (options->quit || code != 0) QApplication::exit(code);
  });
  QTimer::singleShot(0, &script, &ascope::ScriptedRun::begin);
  const int code = QApplication::exec();
  // Scripted mode must end: the window's and the application's destructors join the trainer and
  // the pool jobs, which a timed-out run may still be waiting on.
  if (options->scripted()) ascope::ScriptedRun::exitAfterGrace(code);
  return code;
}
