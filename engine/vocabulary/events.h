#pragma once
// What the trainer tells the world: plain value structs (no LibTorch types), copied out of
// tensors on the training thread, so the GUI and the CLI never touch a tensor. This header
// gathers them; each part has its own (state, metrics, attention snapshots, head statistics,
// log lines, the batch a drain returns).
#include "engine/vocabulary/attention_snapshot.h"
#include "engine/vocabulary/event_batch.h"
#include "engine/vocabulary/head_statistics_update.h"
#include "engine/vocabulary/log_line.h"
#include "engine/vocabulary/trainer_state.h"
#include "engine/vocabulary/training_metrics.h"
