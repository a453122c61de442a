#include "engine/distributed/rank_launcher.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace ascope {
namespace {

using Clock = std::chrono::steady_clock;

/// "exit code 1", "SIGKILL"
std::string howItEnded(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = sigabbrev_np(WTERMSIG(status));
    return std::string("signal ") +
           (name != nullptr ? std::string("SIG") + name : std::to_string(WTERMSIG(status)));
  }
  return "status " + std::to_string(status);
}

/// Ended as a rank should: with 0, or with the stopped-by-a-signal code after one was passed on.
bool endedWell(int status, const RankLaunch& launch, bool signal_forwarded) {
  if (!WIFEXITED(status)) return false;
  return WEXITSTATUS(status) == 0 ||
         (signal_forwarded && WEXITSTATUS(status) == launch.stopped_exit_code);
}

/// Environment of rank `rank`: ours, with torchrun's variables set (replacing any of ours).
std::vector<std::string> rankEnvironment(const RankLaunch& launch, int rank, int port) {
  const std::vector<std::pair<std::string, std::string>> job = {
      {"RANK", std::to_string(rank)},       {"WORLD_SIZE", std::to_string(launch.ranks)},
      {"LOCAL_RANK", std::to_string(rank)}, {"LOCAL_WORLD_SIZE", std::to_string(launch.ranks)},
      {"MASTER_ADDR", "127.0.0.1"},         {"MASTER_PORT", std::to_string(port)}};
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [key, value] : job) replaced = replaced || name == key;
    if (!replaced) out.push_back(entry);
  }
  for (const auto& [key, value] : job) out.push_back(key + "=" + value);
  if (launch.threads_per_rank > 0 && std::getenv("OMP_NUM_THREADS") == nullptr) {
    out.push_back("OMP_NUM_THREADS=" + std::to_string(launch.threads_per_rank));
  }
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

struct Rank {
  pid_t pid = -1;
  bool running = false;
  int status = 0;
};

}  // namespace

int freeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

int launchLocalRanks(const RankLaunch& launch, const std::function<int()>& signal_received,
                     const std::function<void(const std::string&)>& say) {
  const int port = launch.master_port > 0 ? launch.master_port : freeLoopbackPort();
  if (port <= 0) {
    say("no free TCP port on 127.0.0.1 for the job's rendezvous: set MASTER_PORT");
    return 1;
  }
  const pid_t launcher = ::getpid();
  std::vector<Rank> ranks(static_cast<std::size_t>(launch.ranks));
  std::string pids;
  for (int r = 0; r < launch.ranks; ++r) {
    // Everything exec needs is made before fork: a child of a threaded process may only call
    // async-signal-safe functions.
    std::vector<std::string> argv_strings{launch.program};
    argv_strings.insert(argv_strings.end(), launch.args.begin(), launch.args.end());
    std::vector<std::string> env_strings = rankEnvironment(launch, r, port);
    std::vector<char*> argv = pointers(argv_strings);
    std::vector<char*> envp = pointers(env_strings);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);  // the terminal's Ctrl+C goes to the launcher, which passes it on once
      // The launcher's death, even by SIGKILL, is one stop request for the rank (SIGHUP, which
      // the CLI never takes for a second, hastier signal: app/cli/stop_signals.h).
      ::prctl(PR_SET_PDEATHSIG, SIGHUP);
      if (::getppid() != launcher) ::_exit(1);  // the launcher died before prctl
      ::execve(argv[0], argv.data(), envp.data());
      static const char message[] = "attentionscope-cli: cannot start a rank (execve failed)\n";
      [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, message, sizeof message - 1);
      ::_exit(127);
    }
    if (pid < 0) {
      say(std::string("cannot start rank ") + std::to_string(r) + ": " + std::strerror(errno));
      for (const Rank& started : ranks) {
        if (started.running) ::kill(started.pid, SIGTERM);
      }
      break;
    }
    ranks[static_cast<std::size_t>(r)] = {pid, true, 0};
    pids += (r == 0 ? "" : ", ") + std::to_string(pid);
  }
  say("started " + std::to_string(launch.ranks) + " ranks on this machine (pids " + pids +
      "), rendezvous at 127.0.0.1:" + std::to_string(port));

  int forwarded_signal = 0;
  bool failed = false;
  Clock::time_point failed_at{};
  bool terminated = false, killed = false;
  for (;;) {
    bool any_running = false;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      Rank& rank = ranks[r];
      if (!rank.running) continue;
      int status = 0;
      const pid_t done = ::waitpid(rank.pid, &status, WNOHANG);
      if (done == 0) {
        any_running = true;
        continue;
      }
      rank.running = false;
      rank.status = done == rank.pid ? status : 0;
      if (!endedWell(rank.status, launch, forwarded_signal != 0) && !failed) {
        failed = true;
        failed_at = Clock::now();
        say("rank " + std::to_string(r) + " (pid " + std::to_string(rank.pid) + ") ended with " +
            howItEnded(rank.status) + "; the other ranks stop at their next step");
      }
    }
    if (!any_running) break;
    const int signal = signal_received();
    if (signal != 0 && signal != forwarded_signal) {
      forwarded_signal = signal;
      for (const Rank& rank : ranks) {
        if (rank.running) ::kill(rank.pid, signal);
      }
    }
    const double since_failure =
        failed ? std::chrono::duration<double>(Clock::now() - failed_at).count() : 0;
    if (failed && !terminated && since_failure > launch.grace_s) {
      terminated = true;
      for (std::size_t r = 0; r < ranks.size(); ++r) {
        if (!ranks[r].running) continue;
        say("rank " + std::to_string(r) + " (pid " + std::to_string(ranks[r].pid) +
            ") is still running " + std::to_string(static_cast<int>(launch.grace_s)) +
            " s after the failure: terminated");
        ::kill(ranks[r].pid, SIGTERM);
      }
    }
    if (terminated && !killed && since_failure > launch.grace_s + launch.kill_after_s) {
      killed = true;
      for (const Rank& rank : ranks) {
        if (rank.running) ::kill(rank.pid, SIGKILL);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const int leader = ranks.front().status;
  if (!WIFEXITED(leader)) return 1;
  return WEXITSTATUS(leader) == 0 && failed ? 1 : WEXITSTATUS(leader);
}

}  // namespace ascope
