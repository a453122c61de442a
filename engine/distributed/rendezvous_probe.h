#pragma once
// A look at what listens on a job's MASTER_PORT before a rank other than 0 hands it to c10d.
// LibTorch 2's store client, met by a program that takes connections and closes them, reconnects
// until the job's timeout (1800 s by default) instead of failing as 1.13's did. c10d's store
// server never speaks first and never closes a connection it has not been sent anything on, so
// a connection that ends, or a greeting, within a moment says another program answers there.
#include <chrono>
#include <optional>
#include <string>

namespace ascope {

/// What is wrong with what answers at host:port ("it closed the connection without a word"), or
/// nothing when it may be a store: nobody listening yet (rank 0 may still be starting), a
/// connection that stays open and silent for `patience`, or an address that does not resolve
/// (the store's own connect says that better).
std::optional<std::string> foreignRendezvous(const std::string& host, int port,
                                             std::chrono::milliseconds patience);

}  // namespace ascope
