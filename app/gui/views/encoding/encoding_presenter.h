#pragma once
// The Positional encoding dock's one owner: the panel and the encoding it shows — the newest
// probe's while the timeline follows the run, a stored snapshot's own when it shows that step.
#include <QJsonObject>
#include <QObject>

#include <optional>

#include "app/gui/views/news/run_news_reader.h"
#include "engine/vocabulary/events.h"

class QWidget;

namespace ascope {

class PositionalEncodingPanel;

class EncodingPresenter : public QObject, public RunNewsReader {
  Q_OBJECT

 public:
  /// Creates the panel (a child of `panel_parent`, which the window puts in the dock).
  explicit EncodingPresenter(QWidget* panel_parent);

  PositionalEncodingPanel* panel() const { return panel_; }

  /// The newest probe's encoding; shown at once when `following_live`.
  void setLive(const PositionalEncodingSnapshot& encoding, bool following_live);
  /// The timeline follows the run again: the newest encoding.
  void showLive();
  /// The encoding of the step on show; none (a file written before encodings were stored) keeps
  /// what is shown.
  void showStep(const std::optional<PositionalEncodingSnapshot>& encoding);
  void clear();
  // RunNewsReader: the positional encoding (live and followed as a live probe's, opened as the
  // newest step's).
  void clearRun() override;
  void takeNews(const RunNews& news) override;

  /// "positional_encoding_rows", "positional_encoding_cols" of the encoding shown.
  QJsonObject report() const override;

 private:
  PositionalEncodingPanel* panel_;
  std::optional<PositionalEncodingSnapshot> live_;
};

}  // namespace ascope
