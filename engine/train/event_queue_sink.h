#pragma once
// spdlog sink that turns log records into LogLine events, so the GUI's log dock and the CLI see the
// trainer's log without sharing its thread.
#include <spdlog/sinks/base_sink.h>

#include <memory>
#include <mutex>

#include "engine/train/event_queue.h"

namespace ascope {

class EventQueueSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  /// `queue` outlives the sink (the trainer owns both the queue and the session that logs).
  explicit EventQueueSink(EventQueue& queue) : queue_(queue) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    queue_.pushLog(
        {static_cast<Severity>(msg.level), std::string(msg.payload.begin(), msg.payload.end())});
  }
  void flush_() override {}

 private:
  EventQueue& queue_;
};

}  // namespace ascope
