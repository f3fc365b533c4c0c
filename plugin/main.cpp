#include <iostream>

#include "plugin/plugin.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv, argv + argc);
  return hintkit::plugin::run(args, {std::cin, std::cout, std::cerr});
}
