#include "tests/handout/chromium_session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include "engine/handout/base64.h"

namespace ascope::testing {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string onPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::string candidate = folder + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

std::string ChromiumSession::findBrowser() {
  if (const char* chosen = std::getenv("ATTENTIONSCOPE_CHROMIUM"); chosen && *chosen) {
    return ::access(chosen, X_OK) == 0 ? chosen : "";
  }
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    if (std::string found = onPath(name); !found.empty()) return found;
  }
  return "";
}

ChromiumSession::~ChromiumSession() {
  stop();
}

bool ChromiumSession::start(const std::string& browser, const std::string& profile_dir,
                            const std::vector<std::string>& flags, std::string& error) {
  int in[2], out[2];  // in: we write, the browser reads (its fd 3); out: the other way (its fd 4)
  if (::pipe(in) != 0 || ::pipe(out) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::vector<std::string> args = {browser,
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-dev-shm-usage",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--disable-extensions",
                                   "--no-first-run",
                                   "--no-default-browser-check",
                                   "--hide-scrollbars",
                                   "--mute-audio",
                                   "--remote-debugging-pipe",
                                   "--user-data-dir=" + profile_dir};
  args.insert(args.end(), flags.begin(), flags.end());
  args.emplace_back("about:blank");
  pid_ = ::fork();
  if (pid_ < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    return false;
  }
  if (pid_ == 0) {
    // The browser's fd 3 reads what we send, its fd 4 is what it answers on.
    ::dup2(in[0], 3);
    ::dup2(out[1], 4);
    for (int fd = 5; fd < 1024; ++fd) ::close(fd);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(browser.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  to_browser_ = in[1];
  from_browser_ = out[0];
  ::signal(SIGPIPE, SIG_IGN);
  const json version = call("Browser.getVersion", json::object(), "", 60);
  if (version.contains("error")) {
    error = "the browser did not answer: " + version["error"].dump();
    stop();
    return false;
  }
  return true;
}

void ChromiumSession::stop() {
  if (to_browser_ >= 0) {
    const std::string close = json{{"id", next_id_++}, {"method", "Browser.close"}}.dump();
    // With its NUL; a browser already gone (the write failing) is reaped below all the same.
    [[maybe_unused]] const ssize_t sent = ::write(to_browser_, close.c_str(), close.size() + 1);
    ::close(to_browser_);
    to_browser_ = -1;
  }
  if (pid_ > 0) {
    const auto start = Clock::now();
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (secondsSince(start) > 10) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    pid_ = -1;
  }
  if (from_browser_ >= 0) {
    ::close(from_browser_);
    from_browser_ = -1;
  }
}

bool ChromiumSession::readMessage(json& message, double timeout_s) {
  const auto start = Clock::now();
  while (true) {
    const std::size_t end = pending_.find('\0');
    if (end != std::string::npos) {
      if (std::getenv("ATTENTIONSCOPE_CDP_TRACE")) {
        std::fprintf(stderr, "<- %.300s\n", pending_.substr(0, end).c_str());
      }
      message = json::parse(pending_.substr(0, end), nullptr, false);
      pending_.erase(0, end + 1);
      return !message.is_discarded();
    }
    const double left = timeout_s - secondsSince(start);
    if (left <= 0 || from_browser_ < 0) return false;
    pollfd fd{from_browser_, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left * 1000) + 1) <= 0) continue;
    char buffer[65536];
    const ssize_t n = ::read(from_browser_, buffer, sizeof buffer);
    if (n <= 0) return false;  // the browser is gone
    pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

json ChromiumSession::call(const std::string& method, const json& params,
                           const std::string& session, double timeout_s) {
  if (to_browser_ < 0) return json{{"error", "no browser"}};
  const int id = next_id_++;
  json request{{"id", id}, {"method", method}, {"params", params}};
  if (!session.empty()) request["sessionId"] = session;
  const std::string text = request.dump();
  if (std::getenv("ATTENTIONSCOPE_CDP_TRACE")) std::fprintf(stderr, "-> %.300s\n", text.c_str());
  const char* data = text.c_str();
  std::size_t left = text.size() + 1;  // with its NUL
  while (left > 0) {
    const ssize_t n = ::write(to_browser_, data, left);
    if (n <= 0) return json{{"error", "the browser closed its pipe"}};
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  const auto start = Clock::now();
  json message;
  while (readMessage(message, timeout_s - secondsSince(start))) {
    if (message.contains("id") && message["id"] == id) {
      if (message.contains("error")) return json{{"error", message["error"]}};
      return message.value("result", json::object());
    }
    if (message.contains("method")) events_.push_back(std::move(message));
  }
  return json{{"error", method + " timed out"}};
}

std::string ChromiumSession::openTab(int width, int height) {
  const json target = call("Target.createTarget", {{"url", "about:blank"}});
  const json attached = call("Target.attachToTarget",
                             {{"targetId", target.value("targetId", "")}, {"flatten", true}});
  const std::string session = attached.value("sessionId", "");
  if (session.empty()) return session;
  for (const char* domain : {"Runtime.enable", "Log.enable", "Network.enable", "Page.enable"}) {
    call(domain, json::object(), session);
  }
  call("Emulation.setDeviceMetricsOverride",
       {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", false}},
       session);
  return session;
}

void ChromiumSession::navigate(const std::string& session, const std::string& url) {
  const std::size_t before = events_.size();
  call("Page.navigate", {{"url", url}}, session);
  const auto start = Clock::now();
  while (secondsSince(start) < 30) {
    for (std::size_t i = before; i < events_.size(); ++i) {
      if (events_[i].value("method", "") == "Page.loadEventFired" &&
          events_[i].value("sessionId", "") == session) {
        return;
      }
    }
    json message;
    if (readMessage(message, 0.2) && message.contains("method"))
      events_.push_back(std::move(message));
  }
}

json ChromiumSession::evaluate(const std::string& session, const std::string& expression) {
  const json result =
      call("Runtime.evaluate",
           {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}}, session);
  if (result.contains("exceptionDetails")) return json{{"error", result["exceptionDetails"]}};
  return result.contains("result") ? result["result"].value("value", json()) : json();
}

bool ChromiumSession::waitUntil(const std::string& session, const std::string& expression,
                                double timeout_s) {
  const auto start = Clock::now();
  while (secondsSince(start) < timeout_s) {
    if (evaluate(session, "Boolean(" + expression + ")") == json(true)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void ChromiumSession::mouseMove(const std::string& session, double x, double y) {
  call("Input.dispatchMouseEvent", {{"type", "mouseMoved"}, {"x", x}, {"y", y}}, session);
}

void ChromiumSession::click(const std::string& session, double x, double y) {
  mouseMove(session, x, y);
  for (const char* type : {"mousePressed", "mouseReleased"}) {
    call("Input.dispatchMouseEvent",
         {{"type", type}, {"x", x}, {"y", y}, {"button", "left"}, {"clickCount", 1}}, session);
  }
}

void ChromiumSession::key(const std::string& session, const std::string& key,
                          const std::string& code, int key_code) {
  for (const char* type : {"keyDown", "keyUp"}) {
    call("Input.dispatchKeyEvent",
         {{"type", type}, {"key", key}, {"code", code}, {"windowsVirtualKeyCode", key_code}},
         session);
  }
}

std::string ChromiumSession::screenshot(const std::string& session) {
  const json shot = call("Page.captureScreenshot", {{"format", "png"}}, session);
  return base64Decode(shot.value("data", "")).value_or("");
}

std::vector<std::string> ChromiumSession::errors(const std::string& session) const {
  std::vector<std::string> out;
  for (const json& e : events_) {
    if (!session.empty() && e.value("sessionId", "") != session) continue;
    const std::string method = e.value("method", "");
    const json& p = e.contains("params") ? e["params"] : json::object();
    if (method == "Runtime.exceptionThrown") {
      out.push_back("exception: " + p.dump());
    } else if (method == "Runtime.consoleAPICalled" &&
               (p.value("type", "") == "error" || p.value("type", "") == "assert")) {
      out.push_back("console." + p.value("type", "") + ": " +
                    p.value("args", json::array()).dump());
    } else if (method == "Log.entryAdded" && p.contains("entry") &&
               p["entry"].value("level", "") == "error") {
      out.push_back("log: " + p["entry"].value("text", "") + " " + p["entry"].value("url", ""));
    }
  }
  return out;
}

std::vector<std::string> ChromiumSession::requestedUrls(const std::string& session) const {
  std::vector<std::string> out;
  for (const json& e : events_) {
    if (!session.empty() && e.value("sessionId", "") != session) continue;
    if (e.value("method", "") == "Network.requestWillBeSent" && e.contains("params")) {
      out.push_back(e["params"]["request"].value("url", ""));
    }
  }
  return out;
}

}  // namespace ascope::testing
