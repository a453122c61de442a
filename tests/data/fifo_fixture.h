#pragma once
// A FIFO for the tests that check readers refuse one. Should a reader open it anyway (the bug
// they guard against), open() would wait for a writer forever and hang the suite; so once
// `unblockAfter` has passed, a writer opens and closes it again and again, the blocked reader
// sees an empty file, and the test fails on its expectations instead of hanging.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace ascope::testing {

class Fifo {
 public:
  explicit Fifo(std::string path,
                std::chrono::milliseconds unblock_after = std::chrono::milliseconds(3000))
      : path_(std::move(path)) {
    ::unlink(path_.c_str());
    created_ = ::mkfifo(path_.c_str(), 0600) == 0;
    if (created_) unblocker_ = std::thread([this, unblock_after] { unblock(unblock_after); });
  }
  ~Fifo() {
    stop_ = true;
    if (unblocker_.joinable()) unblocker_.join();
    ::unlink(path_.c_str());
  }
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;

  bool created() const { return created_; }
  const std::string& path() const { return path_; }

 private:
  void unblock(std::chrono::milliseconds after) {
    const auto deadline = std::chrono::steady_clock::now() + after;
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (std::chrono::steady_clock::now() < deadline) continue;
      // Succeeds only while a reader has it open (ENXIO otherwise): frees exactly the stuck one.
      const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
    }
  }

  std::string path_;
  bool created_ = false;
  std::atomic<bool> stop_{false};
  std::thread unblocker_;
};

}  // namespace ascope::testing
