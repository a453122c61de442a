#pragma once
// What a training session says when something stops it, in one place: which errors are running
// out of memory, and the line a person reads for each fault (a non-finite loss, out of memory, a
// checkpoint that could not be written, a data-parallel job that lost a rank). Each names the
// step and the setting or file to change, as every message of the program does.
#include <cstdint>
#include <exception>
#include <string>

namespace ascope {

/// Running out of memory, on a GPU or a CPU (std::bad_alloc, LibTorch's "DefaultCPUAllocator:
/// can't allocate memory", CUDA's "out of memory"): a fault a smaller batch or model avoids.
bool isOutOfMemoryError(const std::exception& e);

/// Out of memory while running `phase` ("the training step") at `step` (1-based).
std::string outOfMemoryMessage(const char* phase, std::int64_t step, std::int64_t batch_size);

/// A step whose loss was not finite (skipped; the last good checkpoint kept), at learning rate
/// `lr`.
std::string nonFiniteLossMessage(std::int64_t step, double lr);

/// checkpoints/`name`.pt could not be written at `step` (`error`: why, e.g. a full disk).
std::string checkpointFailureMessage(const std::string& error, std::int64_t step, const char* name);

/// What a data-parallel job keeps when a rank is lost: `fault` (the collective's error), then
/// `kept` (which checkpoint holds the last complete step; empty: none yet) and how to go on
/// from `run_dir`.
std::string jobFaultMessage(const std::string& fault, const std::string& kept,
                            const std::string& run_dir);

}  // namespace ascope
