#pragma once
// Head ablation of a task's model (LibTorch side): evaluate it as it is, then with heads switched
// off through MultiHeadAttention::setHeadMask, to show what each head contributes.
#include "engine/runfolder/ablation/ablation_table.h"
#include "engine/tasks/task.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

/// Evaluates `task` with Task::evaluate(options.samples) (its figures over the samples its own
/// settings say: ablateRun sets them from options.figure_samples when it builds the task): the
/// baseline, then for every attention site (group, layer) every head dropped, every head kept alone
/// (the layer's other heads dropped) and the whole layer dropped. 1 + Σ(2·heads + 1) evaluations.
/// Every site's head mask is put back as it was afterwards, also on error. The caller's thread
/// must own the task (the trainer's live model is not to be touched from elsewhere).
/// Errors: bad options, a model without attention, "cancelled" when `progress` returns false,
/// or the first line of a LibTorch exception.
Expected<AblationTable> ablateHeads(Task& task, const AblationOptions& options,
                                    const AblationProgress& progress);

}  // namespace ascope
