// ytt's flag syntax as `hintkit values` parses it.
#include <gtest/gtest.h>

#include "ytt/cmd/cmd.h"

namespace hintkit::ytt {
namespace {

struct Case {
  std::vector<std::string> args;
  std::string want_err;  // empty: parses
};

TEST(ParseArgs, AcceptsYttFlagSpellingsAndRejectsUnknownOnes) {
  const Case cases[] = {
      {{"-f", "schema.yaml", "--data-values-inspect"}, ""},
      {{"-fschema.yaml", "-v", "a=b", "--data-value-yaml=c=1"}, ""},
      {{"--file=x.yaml", "-o", "json"}, ""},
      {{"--inspect-data-values"}, "Error: unknown flag: --inspect-data-values\n"},
      {{"-x"}, "Error: unknown shorthand flag: 'x' in -x\n"},
      {{"-f"}, "Error: flag needs an argument: 'f' in -f\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.front());
    Options o;
    Outcome err;
    bool ok = parse_args(c.args, o, err);
    EXPECT_EQ(ok, c.want_err.empty());
    EXPECT_EQ(err.err, c.want_err);
  }
}

TEST(ParseArgs, KeepsEachFlagKindInOrder) {
  Options o;
  Outcome err;
  ASSERT_TRUE(parse_args({"-f", "a.yaml", "-v", "x=1", "-f", "b.yaml", "--data-value=y=2",
                          "--dangerous-data-values-disable-validation", "--file-mark", "a:b=c",
                          "--file-mark=d:e=f", "--ignore-unknown-comments"},
                         o, err));
  EXPECT_EQ(o.files, (std::vector<std::string>{"a.yaml", "b.yaml"}));
  EXPECT_EQ(o.file_marks, (std::vector<std::string>{"a:b=c", "d:e=f"}));
  EXPECT_TRUE(o.ignore_unknown_comments);
  EXPECT_EQ(o.data_value, (std::vector<std::string>{"x=1", "y=2"}));
  EXPECT_TRUE(o.disable_validation);
}

TEST(ParseArgs, StrictIsABoolFlagWithTheShorthandS) {
  struct StrictCase {
    std::vector<std::string> args;
    bool want;
  };
  const StrictCase cases[] = {
      {{"-f", "a.yml"}, false},      {{"-s"}, true},
      {{"--strict"}, true},          {{"--strict=false"}, false},
      {{"-s", "--strict=0"}, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.back());
    Options o;
    Outcome err;
    ASSERT_TRUE(parse_args(c.args, o, err));
    EXPECT_EQ(o.strict, c.want);
  }
}

TEST(ParseArgs, RefusesYttFlagsHintkitDoesNotImplementWithExitTwo) {
  const Case cases[] = {
      {{"--debug"},
       "Error: hintkit values does not support debug output (--debug); use ytt for this\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args.front());
    Options o;
    Outcome err;
    EXPECT_FALSE(parse_args(c.args, o, err));
    EXPECT_EQ(err.exit_code, kExitUnsupported);
    EXPECT_EQ(err.err, c.want_err);
  }
}

TEST(ParseArgs, BulkInTakesTheJsonTextAndBulkOutIsABoolFlag) {
  Options o;
  Outcome err;
  ASSERT_TRUE(parse_args({"--bulk-in", "{\"files\":[]}", "--bulk-out"}, o, err)) << err.err;
  EXPECT_EQ(o.bulk_in, "{\"files\":[]}");
  EXPECT_TRUE(o.bulk_out);
  Options off;
  ASSERT_TRUE(parse_args({"--bulk-in={}", "--bulk-out=false"}, off, err)) << err.err;
  EXPECT_EQ(off.bulk_in, "{}");
  EXPECT_FALSE(off.bulk_out);
}

TEST(ParseArgs, FilesInspectIsABoolFlag) {
  Options o;
  Outcome err;
  ASSERT_TRUE(parse_args({"-f", "a.yml", "--files-inspect"}, o, err)) << err.err;
  EXPECT_TRUE(o.files_inspect);
  Options off;
  ASSERT_TRUE(parse_args({"--files-inspect=false"}, off, err)) << err.err;
  EXPECT_FALSE(off.files_inspect);
}

TEST(ParseArgs, PositionOutputIsAFileFormatAndTheFirstFormatGivenWins) {
  for (const auto& [args, want] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"-o", "pos"}, "pos"}, {{"-o", "pos,json"}, "pos"}, {{"-o", "json", "-o", "pos"}, "json"}}) {
    SCOPED_TRACE(args.back());
    Options o;
    Outcome err;
    ASSERT_TRUE(parse_args(args, o, err)) << err.err;
    EXPECT_EQ(o.output, want);
  }
}

TEST(ParseArgs, OutputFolderFlagsAreTaken) {
  Options o;
  Outcome err;
  ASSERT_TRUE(
      parse_args({"--output-files", "a", "--dangerous-emptied-output-directory=b"}, o, err));
  EXPECT_EQ(o.output_files, "a");
  EXPECT_EQ(o.output_directory, "b");
}

TEST(ParseArgs, BooleanFlagsTakeGoSpellingsAndOutputTakesAList) {
  Options o;
  Outcome err;
  ASSERT_TRUE(
      parse_args({"--data-values-inspect=T", "--debug=false", "-o", "openapi-v3,json"}, o, err));
  EXPECT_TRUE(o.inspect);
  EXPECT_EQ(o.output, "json");
  EXPECT_TRUE(o.output_openapi);
  Options bad;
  EXPECT_FALSE(parse_args({"--data-values-inspect=yes"}, bad, err));
  EXPECT_EQ(err.err,
            "Error: invalid argument \"yes\" for \"--data-values-inspect\" flag: "
            "strconv.ParseBool: parsing \"yes\": invalid syntax\n");
}

// cobra finds ytt's subcommand as the first word that is neither a flag nor a flag's value,
// and the subcommand parses the rest with its own flags.
TEST(ParseArgs, TheFirstWordThatIsNoFlagValueNamesTheCommand) {
  struct CommandCase {
    std::vector<std::string> args;
    Command want;
    std::vector<std::string> files;
    std::string want_err;
  };
  const CommandCase cases[] = {
      {{"fmt", "-f", "a.yml"}, Command::kFmt, {"a.yml"}, ""},
      {{"-f", "a.yml", "fmt"}, Command::kFmt, {"a.yml"}, ""},
      {{"-s", "fmt", "-f", "a.yml"}, Command::kFmt, {"a.yml"}, ""},
      // `fmt` as the value of -f (the last word): a file, and no command.
      {{"-f", "fmt"}, Command::kTemplate, {"fmt"}, ""},
      {{"-f", "fmt", "-f", "b.yml"}, Command::kTemplate, {"fmt", "b.yml"}, ""},
      {{"--", "fmt"},
       Command::kTemplate,
       {},
       "Error: command 'ytt' does not accept extra arguments 'fmt'\n"},
      {{"fmt", "-f", "a.yml", "fmt"},
       Command::kFmt,
       {"a.yml"},
       "Error: command 'ytt fmt' does not accept extra arguments 'fmt'\n"},
      {{"fmt", "--data-value", "a=1"}, Command::kFmt, {}, "Error: unknown flag: --data-value\n"},
      // `template` and its aliases are the root command again.
      {{"template", "-f", "a.yml"}, Command::kTemplate, {"a.yml"}, ""},
      {{"-f", "a.yml", "tpl"}, Command::kTemplate, {"a.yml"}, ""},
      {{"t", "-f", "a.yml", "t"},
       Command::kTemplate,
       {"a.yml"},
       "Error: command 'ytt template' does not accept extra arguments 't'\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    Options o;
    Outcome err;
    EXPECT_EQ(parse_args(c.args, o, err), c.want_err.empty());
    EXPECT_EQ(err.err, c.want_err);
    EXPECT_EQ(o.command, c.want);
    EXPECT_EQ(o.files, c.files);
  }
}

TEST(ParseArgs, OtherYttCommandsAreRefusedWithExitTwo) {
  Options o;
  Outcome err;
  EXPECT_FALSE(parse_args({"-s", "version"}, o, err));
  EXPECT_EQ(err.exit_code, kExitUnsupported);
  EXPECT_EQ(err.err,
            "Error: hintkit values does not support ytt's `version` command; use ytt for "
            "this\n");
}

// cobra's help command: the help of the command its words name, the root's otherwise.
TEST(ParseArgs, HelpAsksForTheHelpOfTheCommandItNames) {
  struct HelpCase {
    std::vector<std::string> args;
    Command want;
  };
  const HelpCase cases[] = {{{"help"}, Command::kTemplate},
                            {{"help", "fmt"}, Command::kFmt},
                            {{"help", "fmt", "x", "-h"}, Command::kFmt},
                            {{"help", "bogus"}, Command::kTemplate},
                            {{"help", "template"}, Command::kTemplate}};
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c.args));
    Options o;
    Outcome err;
    ASSERT_TRUE(parse_args(c.args, o, err)) << err.err;
    EXPECT_TRUE(o.help);
    EXPECT_EQ(o.command, c.want);
  }
  Options o;
  Outcome err;
  EXPECT_FALSE(parse_args({"-f", "x.yml", "help"}, o, err));  // help takes no -f
  EXPECT_EQ(err.exit_code, 1);
  EXPECT_EQ(err.err, "Error: unknown shorthand flag: 'f' in -f\n");
  Outcome refused;
  EXPECT_FALSE(parse_args({"help", "website"}, o, refused));
  EXPECT_EQ(refused.exit_code, kExitUnsupported);
}

}  // namespace
}  // namespace hintkit::ytt
