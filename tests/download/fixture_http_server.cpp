#include "tests/download/fixture_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ascope::testing {
namespace {

constexpr int kPollIntervalMs = 20;

bool sendAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
    if (sent <= 0) return false;
    data += sent;
    size -= static_cast<std::size_t>(sent);
  }
  return true;
}

/// Reads the request head (up to the blank line); empty on a timeout or a closed connection.
std::string readRequestHead(int fd) {
  std::string head;
  char chunk[1024];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
    const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
    if (got <= 0) return {};
    head.append(chunk, static_cast<std::size_t>(got));
  }
  return head;
}

}  // namespace

FixtureHttpServer::FixtureHttpServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;  // the kernel picks a free port
  socklen_t length = sizeof address;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listen_fd_, 8) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    std::perror("FixtureHttpServer: cannot listen on 127.0.0.1");
    std::abort();
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { acceptLoop(); });
}

FixtureHttpServer::~FixtureHttpServer() {
  stop_ = true;
  thread_.join();
  ::close(listen_fd_);
}

void FixtureHttpServer::serve(const std::string& path, std::string body) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].body = std::move(body);
}

void FixtureHttpServer::cutAfter(const std::string& path, std::size_t bytes, int times) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].cut_after = bytes;
  routes_[path].cuts_left = times;
}

void FixtureHttpServer::ignoreRange(const std::string& path) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].honor_range = false;
}

void FixtureHttpServer::addHeader(const std::string& path, std::string line) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].headers.push_back(std::move(line));
}

void FixtureHttpServer::redirect(const std::string& path, std::string location) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].location = std::move(location);
}

void FixtureHttpServer::answerWith(const std::string& path, int status) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].status = status;
}

void FixtureHttpServer::requireToken(const std::string& path, std::string token) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].token = std::move(token);
}

void FixtureHttpServer::answerRaw(const std::string& path, std::string response) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].raw = std::move(response);
}

void FixtureHttpServer::throttle(const std::string& path, std::size_t bytes_per_second) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].bytes_per_second = bytes_per_second;
}

void FixtureHttpServer::neverAnswer(const std::string& path) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path].silent = true;
}

std::string FixtureHttpServer::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<FixtureHttpServer::Request> FixtureHttpServer::requests() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

void FixtureHttpServer::acceptLoop() {
  while (!stop_) {
    pollfd waiting{listen_fd_, POLLIN, 0};
    if (::poll(&waiting, 1, kPollIntervalMs) <= 0) continue;
    const int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    const timeval timeout{2, 0};
    ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    answer(client);
    ::close(client);
  }
}

void FixtureHttpServer::answer(int client) {
  const std::string head = readRequestHead(client);
  if (head.empty()) return;
  std::istringstream lines(head);
  std::string method, path, line;
  lines >> method >> path;
  std::getline(lines, line);  // rest of the request line
  Request request{path, "", method, ""};
  const auto value = [](const std::string& header_line, std::size_t name_length) {
    std::string text =
        header_line.substr(name_length, header_line.find_last_not_of('\r') + 1 - name_length);
    return text.erase(0, text.find_first_not_of(' '));
  };
  while (std::getline(lines, line) && line != "\r") {
    if (::strncasecmp(line.c_str(), "Range:", 6) == 0) request.range = value(line, 6);
    if (::strncasecmp(line.c_str(), "Authorization:", 14) == 0) {
      request.authorization = value(line, 14);
    }
  }

  Route route;
  bool found = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(request);
    const auto it = routes_.find(path);
    if (it != routes_.end()) {
      found = true;
      route = it->second;
      if (it->second.cuts_left > 0 && method == "GET") --it->second.cuts_left;
    }
  }
  std::ostringstream response;
  const bool head_only = method == "HEAD";
  if (!found || (method != "GET" && !head_only)) {
    const std::string body = "no such file\n";
    response << "HTTP/1.1 404 Not Found\r\nContent-Length: " << body.size()
             << "\r\nConnection: close\r\n\r\n"
             << (head_only ? "" : body);
    sendAll(client, response.str().data(), response.str().size());
    return;
  }
  if (route.silent) {
    // Holds the connection until the client gives up (recv sees its close) or the server stops.
    char byte = 0;
    while (!stop_) {
      pollfd waiting{client, POLLIN, 0};
      if (::poll(&waiting, 1, kPollIntervalMs) > 0 && ::recv(client, &byte, 1, 0) <= 0) return;
    }
    return;
  }
  if (!route.raw.empty()) {
    sendAll(client, route.raw.data(), route.raw.size());
    return;
  }
  std::string answer_without_file;
  if (!route.token.empty() && request.authorization != "Bearer " + route.token) {
    answer_without_file = bodilessAnswer(401, route);
  } else if (route.status != 0) {
    answer_without_file = bodilessAnswer(route.status, route);
  } else if (!route.location.empty()) {
    answer_without_file = bodilessAnswer(302, route, "Location: " + route.location + "\r\n");
  }
  if (!answer_without_file.empty()) {
    sendAll(client, answer_without_file.data(), answer_without_file.size());
    return;
  }
  const std::size_t size = route.body.size();
  std::size_t start = 0;
  unsigned long long requested = 0;
  const bool ranged = route.honor_range && !request.range.empty() &&
                      std::sscanf(request.range.c_str(), "bytes=%llu-", &requested) == 1;
  if (ranged && requested >= size) {
    response << "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" << size
             << "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    sendAll(client, response.str().data(), response.str().size());
    return;
  }
  if (ranged) {
    start = static_cast<std::size_t>(requested);
    response << "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " << start << "-" << size - 1
             << "/" << size << "\r\n";
  } else {
    response << "HTTP/1.1 200 OK\r\n";
  }
  for (const std::string& header : route.headers) response << header << "\r\n";
  response << "Content-Length: " << size - start
           << "\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
  std::size_t body_bytes = size - start;
  if (route.cuts_left > 0) body_bytes = std::min(body_bytes, route.cut_after);
  if (!sendAll(client, response.str().data(), response.str().size())) return;
  if (head_only) return;
  if (route.bytes_per_second == 0) {
    sendAll(client, route.body.data() + start, body_bytes);
    return;
  }
  // Tenths of a second's worth at a time; a client that went away ends it (send fails).
  const std::size_t chunk = std::max<std::size_t>(1, route.bytes_per_second / 10);
  for (std::size_t sent = 0; sent < body_bytes && !stop_; sent += chunk) {
    if (!sendAll(client, route.body.data() + start + sent, std::min(chunk, body_bytes - sent))) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string FixtureHttpServer::bodilessAnswer(int status, const Route& route,
                                              const std::string& more_headers) {
  const char* reason = status == 302   ? "Found"
                       : status == 401 ? "Unauthorized"
                       : status == 403 ? "Forbidden"
                       : status == 404 ? "Not Found"
                                       : "Status";
  std::ostringstream response;
  response << "HTTP/1.1 " << status << " " << reason << "\r\n" << more_headers;
  for (const std::string& header : route.headers) response << header << "\r\n";
  response << "Content-Length: 0\r\nConnection: close\r\n\r\n";
  return response.str();
}

}  // namespace ascope::testing
