// A LAMMPS-syntax input deck as a list of commands, each with the file and line it starts on.
//
// Syntax (the subset LAMMPS and this app share): one command per line; `#` starts a comment that
// runs to the end of the line (not inside quotes); a line whose last non-blank character is `&`
// continues on the next; words are separated by blanks, and "double" or 'single' quotes make
// one word of several. Every error names file:line.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace md {

// A bad deck or flag: the message already carries "file:line: ".
class DeckError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string file;
  int line = 0;                    // where the command starts
  std::vector<std::string> words;  // words[0] is the command's name

  const std::string& name() const { return words.front(); }
  std::size_t args() const { return words.size() - 1; }
  // "file:line: " + message, as a DeckError.
  [[noreturn]] void fail(const std::string& message) const;
  // Argument i (1-based, as after the name); fails naming `what` when absent or malformed.
  const std::string& word(std::size_t i, std::string_view what) const;
  double number(std::size_t i, std::string_view what) const;
  long integer(std::size_t i, std::string_view what) const;
  // Fails unless there are at least `low` and at most `high` arguments.
  void expect_args(std::size_t low, std::size_t high, std::string_view usage) const;
};

// The commands of a deck's text; `file` names it in errors.
std::vector<Command> parse_deck(std::string_view text, const std::string& file);

// The whole text of a file; fails with "file: cannot read (reason)".
std::string read_text(const std::string& path);

}  // namespace md
