#pragma once

#include <QJsonObject>
#include <QString>

namespace ascope {

/// Where an exported figure comes from: the run, its task, the training step and the probe
/// sample. Titles and file names carry it, so a figure on a slide still says what it shows.
struct FigureContext {
  QString run;           ///< the run folder's name; empty when there is none
  QString task;          ///< the task as a person reads it
  long long step = -1;   ///< -1 when unknown (an asked input)
  QString probe_sample;  ///< what the probe sample is, e.g. "#0 the black cat"

  /// "2026-11-21_vit · step 1200"; unknown parts are left out.
  QString titlePrefix() const;
  /// `title` after the prefix: "2026-11-21_vit · step 1200 · encoder self · layer 2".
  QString title(const QString& title) const;
  /// "_step1200", empty when the step is unknown.
  QString stepSuffix() const;
  /// run, task, step (null when unknown) and probe_sample.
  QJsonObject toJson() const;
  /// A name safe in any file system: "encoder self · rollout" → "encoder_self_rollout".
  static QString slug(const QString& text);
};

}  // namespace ascope
