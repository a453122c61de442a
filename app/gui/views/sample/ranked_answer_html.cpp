#include "app/gui/views/sample/ranked_answer_html.h"

#include <QStringList>

#include <algorithm>

#include "engine/inference/checkpoint_inference.h"

namespace ascope {

QString rankedAnswerHtml(const InferenceAnswer& answer) {
  const auto html = [](const std::string& text) {
    return QString::fromStdString(text).toHtmlEscaped();
  };
  QString text = QStringLiteral("<b>%1</b> (p = %2)")
                     .arg(html(answer.label))
                     .arg(answer.probability, 0, 'f', 2);
  QStringList others;
  for (std::size_t i = 1; i < std::min<std::size_t>(answer.ranking.size(), 3); ++i) {
    others << QStringLiteral("%1 %2")
                  .arg(html(answer.ranking[i].first))
                  .arg(answer.ranking[i].second, 0, 'f', 2);
  }
  if (!others.isEmpty()) text += QStringLiteral(" · then ") + others.join(QStringLiteral(", "));
  return text;
}

}  // namespace ascope
