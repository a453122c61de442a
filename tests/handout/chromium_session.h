#pragma once
// Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe:
// JSON messages ending in a NUL byte on file descriptors 3 and 4), so a test can open a page,
// click, hover, read the DOM back, collect console messages and network requests, and take
// screenshots, with nothing but the browser installed (no driver, no Node, no Python).
#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ascope::testing {

class ChromiumSession {
 public:
  /// The browser to drive: $ATTENTIONSCOPE_CHROMIUM, else the first of chromium, chromium-browser,
  /// google-chrome on the PATH; "" when there is none.
  static std::string findBrowser();

  ChromiumSession() = default;
  ~ChromiumSession();
  ChromiumSession(const ChromiumSession&) = delete;
  ChromiumSession& operator=(const ChromiumSession&) = delete;

  /// Starts `browser` headless with a profile of its own under `profile_dir`, plus `flags`.
  /// False (and `error` says why) when it does not answer.
  bool start(const std::string& browser, const std::string& profile_dir,
             const std::vector<std::string>& flags, std::string& error);

  /// A new tab of `width` × `height` CSS pixels, attached, with the Runtime, Log, Network and Page
  /// domains on (their events are collected from now on). Returns its session id, "" when the
  /// browser refused.
  std::string openTab(int width, int height);
  /// Loads `url` in the tab and waits for its load event.
  void navigate(const std::string& session, const std::string& url);

  /// A DevTools command; its result, or {"error": …} when it failed or timed out.
  nlohmann::json call(const std::string& method,
                      const nlohmann::json& params = nlohmann::json::object(),
                      const std::string& session = "", double timeout_s = 30);
  /// The value of a JavaScript expression in the tab (by value, promises awaited).
  nlohmann::json evaluate(const std::string& session, const std::string& expression);
  /// Polls `expression` until it is true; false after `timeout_s`.
  bool waitUntil(const std::string& session, const std::string& expression, double timeout_s = 20);

  /// Real input events, at CSS pixel coordinates of the tab's viewport.
  void mouseMove(const std::string& session, double x, double y);
  void click(const std::string& session, double x, double y);
  void key(const std::string& session, const std::string& key, const std::string& code,
           int key_code);
  /// The viewport as PNG bytes.
  std::string screenshot(const std::string& session);

  /// Every event received so far (method, params, sessionId).
  const std::vector<nlohmann::json>& events() const { return events_; }
  /// Console errors, uncaught exceptions and log entries of level "error" of the tab `session`
  /// (every tab's for ""), as text.
  std::vector<std::string> errors(const std::string& session = "") const;
  /// URLs of every request the tab `session` made (Network.requestWillBeSent); every tab's for "".
  std::vector<std::string> requestedUrls(const std::string& session = "") const;

 private:
  bool readMessage(nlohmann::json& message, double timeout_s);
  void stop();

  pid_t pid_ = -1;
  int to_browser_ = -1;
  int from_browser_ = -1;
  int next_id_ = 1;
  std::string pending_;
  std::vector<nlohmann::json> events_;
};

}  // namespace ascope::testing
