#include "app/gui/views/payloads/sample_payload_views.h"

namespace ascope {

const std::vector<SamplePayloadView>& samplePayloadViews() {
  static const std::vector<SamplePayloadView> views = {imageSampleView(), alignmentSampleView()};
  return views;
}

}  // namespace ascope
