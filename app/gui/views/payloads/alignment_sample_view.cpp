// TextAlignment in the Sample dock: the answer under the expected text, cell by cell.
#include "app/gui/views/payloads/sample_payload_views.h"
#include "engine/vocabulary/payloads/text_alignment.h"
#include "widgets/samples/sample_panel.h"

namespace ascope {
namespace {

AlignedColumn::Edit editOf(TextAlignment::Edit edit) {
  switch (edit) {
    case TextAlignment::Edit::kMatch:
      return AlignedColumn::Edit::Match;
    case TextAlignment::Edit::kSubstitute:
      return AlignedColumn::Edit::Substitute;
    case TextAlignment::Edit::kDelete:
      return AlignedColumn::Edit::Delete;
    case TextAlignment::Edit::kInsert:
      return AlignedColumn::Edit::Insert;
  }
  return AlignedColumn::Edit::Match;
}

}  // namespace

SamplePayloadView alignmentSampleView() {
  return {TextAlignment::kKind,
          [](SamplePanel& panel, const SamplePrediction& sample, const TaskDescriptor* task) {
            const TextAlignment& alignment = *sample.payloads.find<TextAlignment>();
            const SampleTerms terms = task ? task->sample_terms : SampleTerms{};
            AlignmentPrediction shown;
            shown.input = QString::fromStdString(sample.input);
            shown.input_title = QString::fromStdString(terms.input);
            shown.expected_title = QString::fromStdString(terms.expected);
            shown.answer_title = QString::fromStdString(terms.answer);
            for (const TextAlignment::Column& c : alignment.columns) {
              shown.columns.push_back({editOf(c.edit), QString::fromStdString(c.reference),
                                       QString::fromStdString(c.answer)});
            }
            panel.setAlignment(shown);
          }};
}

}  // namespace ascope
