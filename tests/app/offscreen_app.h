#pragma once
// Runs the attentionscope binary the way the scripted-mode tests drive it: offscreen, in a given
// folder, with its output merged, killed when it runs past the test's patience (the built program,
// as tests/support/test_paths.h names it).
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include "test_paths.h"

namespace ascope::test {

struct AppOutcome {
  int exit_code = -1;  ///< -1 when it crashed or was killed for taking too long
  QString output;      ///< stdout and stderr together
};

/// `environment` adds to (or replaces in) the test's own, after QT_QPA_PLATFORM=offscreen: e.g. an
/// offscreen screen of a given size ("offscreen:configfile=…") and QT_SCALE_FACTOR.
inline AppOutcome runOffscreenApp(const QStringList& arguments, const QString& working_dir,
                                  int timeout_ms,
                                  const QProcessEnvironment& environment = QProcessEnvironment()) {
  QProcess process;
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.setWorkingDirectory(working_dir);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  for (const QString& key : environment.keys()) env.insert(key, environment.value(key));
  process.setProcessEnvironment(env);
  process.start(QString::fromUtf8(test_paths::appProgram()), arguments);
  if (!process.waitForFinished(timeout_ms)) {
    process.kill();
    process.waitForFinished();
  }
  AppOutcome outcome;
  outcome.exit_code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  outcome.output = QString::fromUtf8(process.readAll());
  return outcome;
}

}  // namespace ascope::test
