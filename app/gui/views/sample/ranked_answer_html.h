#pragma once
// How the Try-it box and the pretrained inspection window print a classifier's answer: the label
// in bold with its probability, then the next two of the ranking.
#include <QString>

namespace ascope {

struct InferenceAnswer;

/// "<b>positive</b> (p = 0.91) · then negative 0.09", every name HTML-escaped.
QString rankedAnswerHtml(const InferenceAnswer& answer);

}  // namespace ascope
