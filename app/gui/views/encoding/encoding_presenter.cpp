#include "app/gui/views/encoding/encoding_presenter.h"

#include <QWidget>

#include "app/gui/views/encoding/positional_encoding_conversion.h"
#include "widgets/encoding/positional_encoding_panel.h"

namespace ascope {

EncodingPresenter::EncodingPresenter(QWidget* panel_parent) : QObject(panel_parent) {
  panel_ = new PositionalEncodingPanel(panel_parent);
  panel_->setObjectName(QStringLiteral("positionalEncodingPanel"));
}

void EncodingPresenter::setLive(const PositionalEncodingSnapshot& encoding, bool following_live) {
  live_ = encoding;
  if (following_live) showLive();
}

void EncodingPresenter::showLive() {
  showStep(live_);
}

void EncodingPresenter::showStep(const std::optional<PositionalEncodingSnapshot>& encoding) {
  if (encoding) panel_->setEncoding(toPositionalEncodingData(*encoding));
}

void EncodingPresenter::clear() {
  live_.reset();
  panel_->clear();
}

QJsonObject EncodingPresenter::report() const {
  const PositionalEncodingData& pe = panel_->encoding();
  return {{QStringLiteral("positional_encoding_rows"), pe.matrix.rows},
          {QStringLiteral("positional_encoding_cols"), pe.matrix.cols}};
}

void EncodingPresenter::clearRun() {
  clear();
}

void EncodingPresenter::takeNews(const RunNews& news) {
  if (news.opened) {
    showStep(news.positional_encoding);
  } else if (news.positional_encoding) {
    setLive(*news.positional_encoding, news.timeline_follows_live);
  }
}

}  // namespace ascope
