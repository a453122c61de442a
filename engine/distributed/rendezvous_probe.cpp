#include "engine/distributed/rendezvous_probe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace ascope {
namespace {

/// Connected to the first address of host:port that takes the connection, else -1.
int connectTo(const std::string& host, int port, std::chrono::milliseconds patience) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    const int fd =
        ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) return fd;
    if (errno == EINPROGRESS) {
      pollfd writable{fd, POLLOUT, 0};
      int error = 0;
      socklen_t length = sizeof error;
      if (::poll(&writable, 1, static_cast<int>(patience.count())) == 1 &&
          ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
        return fd;
      }
    }
    ::close(fd);
  }
  return -1;
}

}  // namespace

std::optional<std::string> foreignRendezvous(const std::string& host, int port,
                                             std::chrono::milliseconds patience) {
  const int fd = connectTo(host, port, patience);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> foreign;
  pollfd readable{fd, POLLIN, 0};
  int ready = 0;
  do {
    ready = ::poll(&readable, 1, static_cast<int>(patience.count()));
  } while (ready < 0 && errno == EINTR);
  if (ready == 1) {
    char byte = 0;
    const ssize_t got = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (got == 0) {
      foreign = "it closed the connection without a word";
    } else if (got > 0) {
      foreign = "it spoke first, which the job's store never does";
    } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
      foreign = std::string("the connection failed: ") + std::strerror(errno);
    }
  }
  ::close(fd);
  return foreign;
}

}  // namespace ascope
