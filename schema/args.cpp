// ytt's command line for `hintkit values`, parsed the way ytt's flag library does
// (`--name value`, `--name=value`, `-f value`, `-fvalue`; unknown flags are errors).
#include <cstring>

#include "schema/schema.h"

namespace hintkit::schema {

namespace {

struct Flag {
  const char* name;
  char shorthand;
  bool boolean;
};

const Flag kFlags[] = {
    {"file", 'f', false},
    {"data-values-file", 0, false},
    {"data-values-env", 0, false},
    {"data-values-env-yaml", 0, false},
    {"data-value", 'v', false},
    {"data-value-yaml", 0, false},
    {"data-value-file", 0, false},
    {"data-values-inspect", 0, true},
    {"data-values-schema-inspect", 0, true},
    {"output", 'o', false},
    {"dangerous-data-values-disable-validation", 0, true},
};

void apply(const Flag& f, const std::string& value, Options& o) {
  std::string n = f.name;
  if (n == "file")
    o.files.push_back(value);
  else if (n == "data-values-file")
    o.data_values_files.push_back(value);
  else if (n == "data-values-env")
    o.data_values_env.push_back(value);
  else if (n == "data-values-env-yaml")
    o.data_values_env_yaml.push_back(value);
  else if (n == "data-value")
    o.data_value.push_back(value);
  else if (n == "data-value-yaml")
    o.data_value_yaml.push_back(value);
  else if (n == "data-value-file")
    o.data_value_file.push_back(value);
  else if (n == "data-values-inspect")
    o.inspect = value != "false";
  else if (n == "data-values-schema-inspect")
    o.schema_inspect = value != "false";
  else if (n == "output")
    o.output = value;
  else if (n == "dangerous-data-values-disable-validation")
    o.disable_validation = value != "false";
}

}  // namespace

bool parse_args(const std::vector<std::string>& args, Options& o, Outcome& usage) {
  auto fail = [&](const std::string& msg) {
    usage.exit_code = 1;
    usage.err = "Error: " + msg + "\n";
    return false;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0 && a.size() > 2) {
      std::string name = a.substr(2), value;
      bool has_value = false;
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      const Flag* f = nullptr;
      for (const auto& k : kFlags)
        if (name == k.name) f = &k;
      if (!f) return fail("unknown flag: --" + name);
      if (f->boolean) {
        apply(*f, has_value ? value : "true", o);
        continue;
      }
      if (!has_value) {
        if (i + 1 >= args.size()) return fail("flag needs an argument: --" + name);
        value = args[++i];
      }
      apply(*f, value, o);
    } else if (a.size() > 1 && a[0] == '-' && a[1] != '-') {
      char s = a[1];
      const Flag* f = nullptr;
      for (const auto& k : kFlags)
        if (k.shorthand && k.shorthand == s) f = &k;
      if (!f) return fail(std::string("unknown shorthand flag: '") + s + "' in " + a);
      std::string value = a.substr(2);
      if (!value.empty() && value[0] == '=') value = value.substr(1);
      if (value.empty()) {
        if (i + 1 >= args.size()) {
          return fail(std::string("flag needs an argument: '") + s + "' in -" + s);
        }
        value = args[++i];
      }
      apply(*f, value, o);
    } else {
      return fail("unknown command \"" + a + "\" for \"ytt\"");
    }
  }
  return true;
}

}  // namespace hintkit::schema
