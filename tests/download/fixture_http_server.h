#pragma once
// A tiny HTTP/1.1 server on 127.0.0.1 (ephemeral port, one thread, one connection at a time) that
// serves fixture files to the downloader tests: GET with and without "Range: bytes=N-", HEAD, 404
// for unknown paths, and on request a response that stops half-way (the connection is closed after
// N body bytes although Content-Length promised more), extra response headers, a redirect, a fixed
// error status, a required bearer token, an answer written byte for byte by the test (a hostile
// server), or no answer at all. It records every request it answered.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ascope::testing {

class FixtureHttpServer {
 public:
  struct Request {
    std::string path;
    /// The Range header's value, e.g. "bytes=100-"; empty when there was none.
    std::string range;
    /// "GET" or "HEAD".
    std::string method;
    /// The Authorization header's value, e.g. "Bearer abc"; empty when there was none.
    std::string authorization;
  };

  /// Binds 127.0.0.1 on a free port and starts answering; aborts the test binary if it cannot.
  FixtureHttpServer();
  ~FixtureHttpServer();
  FixtureHttpServer(const FixtureHttpServer&) = delete;
  FixtureHttpServer& operator=(const FixtureHttpServer&) = delete;

  /// Serves `body` at `path` (e.g. "/cifar.tar.gz").
  void serve(const std::string& path, std::string body);
  /// The next `times` responses for `path` close the connection after `bytes` body bytes.
  void cutAfter(const std::string& path, std::size_t bytes, int times = 1);
  /// Answers requests for `path` with the whole file (200) even when they ask for a range.
  void ignoreRange(const std::string& path);
  /// Adds a header line (e.g. "X-Repo-Commit: abc") to every answer for `path`.
  void addHeader(const std::string& path, std::string line);
  /// Answers requests for `path` with "302 Found" and this Location (absolute or "/relative").
  void redirect(const std::string& path, std::string location);
  /// Answers requests for `path` with `status` (e.g. 401) and an empty body.
  void answerWith(const std::string& path, int status);
  /// Answers requests for `path` with 401 unless they carry "Authorization: Bearer <token>".
  void requireToken(const std::string& path, std::string token);
  /// Answers requests for `path` (HEAD and GET alike) with exactly `response`, status line,
  /// headers and body as given, then closes the connection.
  void answerRaw(const std::string& path, std::string response);
  /// Sends the body of `path` at about `bytes_per_second` (a slow link, so that a test can stop a
  /// client half-way through).
  void throttle(const std::string& path, std::size_t bytes_per_second);
  /// Reads requests for `path` and never answers: the connection stays open until the client
  /// closes it or the server stops. Other requests wait meanwhile (one connection at a time).
  void neverAnswer(const std::string& path);

  /// "http://127.0.0.1:<port><path>".
  std::string url(const std::string& path) const;
  std::vector<Request> requests() const;

 private:
  struct Route {
    std::string body;
    std::size_t cut_after = 0;
    int cuts_left = 0;
    bool honor_range = true;
    std::vector<std::string> headers;
    std::string location;
    int status = 0;  ///< 0: serve the body
    std::string token;
    std::string raw;  ///< non-empty: the whole answer
    bool silent = false;
    std::size_t bytes_per_second = 0;  ///< 0: as fast as the socket takes it
  };

  void acceptLoop();
  void answer(int client);
  /// An answer without the file: its status line, the route's headers and an empty body.
  static std::string bodilessAnswer(int status, const Route& route,
                                    const std::string& more_headers = "");

  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::map<std::string, Route> routes_;  // guarded by mutex_
  std::vector<Request> requests_;        // guarded by mutex_
  std::thread thread_;
};

}  // namespace ascope::testing
