// What a rank other than 0 sees at MASTER_PORT before c10d does: nothing, a store-like silence,
// or another program (engine/distributed/rendezvous_probe.h).
#include "engine/distributed/rendezvous_probe.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace ascope {
namespace {

using std::chrono::milliseconds;

/// A listening socket on 127.0.0.1 and its port.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::listen(fd, 8) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
      port = ntohs(address.sin_port);
    }
  }
  ~Listener() { ::close(fd); }
};

TEST(RendezvousProbe, NobodyListeningYetIsLeftToTheStore) {
  int port = 0;
  {
    const Listener gone;
    port = gone.port;
  }
  ASSERT_GT(port, 0);
  EXPECT_FALSE(foreignRendezvous("127.0.0.1", port, milliseconds(200)).has_value());
}

TEST(RendezvousProbe, ASilentServerMayBeTheStore) {
  const Listener silent;  // the kernel completes the connection; nobody says anything
  ASSERT_GT(silent.port, 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(foreignRendezvous("127.0.0.1", silent.port, milliseconds(200)).has_value());
  EXPECT_GE(std::chrono::steady_clock::now() - t0, milliseconds(150));
}

TEST(RendezvousProbe, AProgramThatClosesOrSpeaksFirstIsNamed) {
  const Listener other;
  ASSERT_GT(other.port, 0);
  std::thread answer([&] {
    int client = ::accept(other.fd, nullptr, nullptr);
    ::close(client);
    client = ::accept(other.fd, nullptr, nullptr);
    const char greeting[] = "SSH-2.0-OpenSSH\r\n";
    EXPECT_GT(::send(client, greeting, sizeof greeting - 1, 0), 0);
    std::this_thread::sleep_for(milliseconds(500));
    ::close(client);
  });
  const std::optional<std::string> closed =
      foreignRendezvous("127.0.0.1", other.port, milliseconds(2000));
  const std::optional<std::string> spoke =
      foreignRendezvous("127.0.0.1", other.port, milliseconds(2000));
  answer.join();
  ASSERT_TRUE(closed.has_value());
  EXPECT_EQ(*closed, "it closed the connection without a word");
  ASSERT_TRUE(spoke.has_value());
  EXPECT_EQ(*spoke, "it spoke first, which the job's store never does");
}

TEST(RendezvousProbe, ANameThatDoesNotResolveIsLeftToTheStore) {
  EXPECT_FALSE(foreignRendezvous("no-such-host.invalid", 29500, milliseconds(100)).has_value());
}

}  // namespace
}  // namespace ascope
