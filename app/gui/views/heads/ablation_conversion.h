#pragma once
// An ablation table as the Ablation dock's plain data, groups named as the Attention dock names
// them.
#include <string>

#include "engine/runfolder/ablation/ablation_table.h"
#include "widgets/tables/head_ablation_data.h"

namespace ascope {

HeadAblationData toHeadAblationData(const std::string& task, const AblationTable& table);

}  // namespace ascope
