#pragma once
// Runs one prepared libcurl easy handle to its end on the calling thread, waking at least every
// 100 ms to look at the cancel flag and at the bytes received. libcurl's own blocking
// curl_easy_perform() checks a progress callback only about once a second and measures stalls in
// whole seconds; this loop ends a cancelled or silent transfer within a tenth of a second, while
// it waits for the connection, for the answer's headers or for the next body byte alike.
#include <atomic>
#include <string>

#include "engine/download/transfer_limits.h"

namespace ascope {

class CurlTransfer {
 public:
  /// How the transfer ended.
  enum class End {
    kCurl,       ///< libcurl finished: see curlCode() (CURLE_OK or an error)
    kCancelled,  ///< the cancel flag was set
    kStalled,    ///< no byte for limits.stall_timeout_s
  };

  /// `easy`: a CURL* with its options set (libcurl's handle type stays out of this header).
  /// The connect timeout is set here from `limits`.
  CurlTransfer(void* easy, const TransferLimits& limits, const std::atomic<bool>* cancel);

  End run();

  /// libcurl's result when run() returned kCurl.
  int curlCode() const { return curl_code_; }
  /// True when any byte of an answer (a header line included) arrived.
  bool answered() const { return received_any_; }
  /// "no answer within 0.5 s" or "no data for 0.5 s", for a kStalled end.
  std::string stallText() const;

 private:
  void* easy_;
  TransferLimits limits_;
  const std::atomic<bool>* cancel_;
  int curl_code_ = 0;
  bool received_any_ = false;
};

}  // namespace ascope
