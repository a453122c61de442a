// A model hub on 127.0.0.1 for scripts (scripts/kill_matrix_download.sh): FixtureModelHub's
// acme/bert and acme/vit, their weights sent at a set rate so that a client can be stopped
// half-way. Prints "http://127.0.0.1:<port>" on stdout, then serves until stdin closes.
//
//   fixture_hub_server [--weights BYTES] [--rate BYTES_PER_SECOND]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "tests/download/fixture_http_server.h"
#include "tests/download/fixture_model_hub.h"

int main(int argc, char** argv) {
  std::size_t weights = 4'000'000, rate = 4'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const std::size_t value = std::strtoull(argv[i + 1], nullptr, 10);
    if (option == "--weights" && value > 0) {
      weights = value;
    } else if (option == "--rate" && value > 0) {
      rate = value;
    } else {
      std::fprintf(stderr,
                   "usage: fixture_hub_server [--weights BYTES] [--rate BYTES_PER_SECOND]\n");
      return 2;
    }
  }
  ascope::testing::FixtureHttpServer server;
  ascope::testing::FixtureModelHub hub(server);
  hub.addBertModel("acme/bert", weights);
  hub.addVitModel("acme/vit", weights / 2);
  for (const char* id : {"acme/bert", "acme/vit"}) {
    server.throttle(ascope::testing::FixtureModelHub::cdnPath(id, "model.safetensors"), rate);
  }
  std::cout << hub.endpoint() << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
  }
  return 0;
}
