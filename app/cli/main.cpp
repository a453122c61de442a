#include <cstdio>

int main(int argc, char** argv) {
  std::printf("attentionscope-cli: not implemented yet\n");
  return argc > 1 && argv != nullptr ? 1 : 0;
}
