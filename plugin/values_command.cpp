// `hintkit values ...`: the ytt-compatible Data Values Schema engine with ytt's own flags.
#include <ostream>

#include "plugin/commands.h"
#include "schema/schema.h"

extern char** environ;

namespace hintkit::plugin {

int run_values(const std::vector<std::string>& args, Io io) {
  schema::Options options;
  schema::Outcome outcome;
  if (!schema::parse_args(args, options, outcome)) {
    io.err << "hintkit: " << outcome.err;
    return outcome.exit_code;
  }
  for (char** e = environ; e && *e; ++e) options.environment.emplace_back(*e);
  outcome = schema::run(options);
  io.out << outcome.out;
  if (!outcome.err.empty()) {
    // Starlark print() output comes first; the error line carries the program name.
    size_t at = outcome.err.find("Error: ");
    if (outcome.exit_code != 0 && at != std::string::npos) {
      io.err << outcome.err.substr(0, at) << "hintkit: " << outcome.err.substr(at);
    } else {
      io.err << outcome.err;
    }
  }
  io.out.flush();
  return outcome.exit_code;
}

}  // namespace hintkit::plugin
