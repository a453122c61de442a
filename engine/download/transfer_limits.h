#pragma once
// How long a transfer waits for a server that does not answer. Fractions of a second are fine:
// libcurl's own timeouts take whole seconds for a stall, so the stall is watched by
// CurlTransfer (curl_transfer.h) instead.
#include <string>

#include "engine/vocabulary/expected.h"

namespace ascope {

struct TransferLimits {
  /// Seconds to wait for the connection.
  double connect_timeout_s = 30;
  /// Seconds without a byte (the answer's headers count) before the transfer fails; the part file
  /// is kept for resume. Counted from the start of the request until the first byte.
  double stall_timeout_s = 60;

  /// Both limits set to `seconds` (the CLI's --timeout).
  static TransferLimits uniform(double seconds) { return {seconds, seconds}; }
};

/// "0.5 s", "60 s": a limit as the messages name it.
std::string secondsText(double seconds);

}  // namespace ascope
