// Deck fuzzer: grammar-aware mutations of seed decks run through the app's interpreter in one MPI
// job. Every case must either run or fail with a DeckError whose message starts with the deck's
// name (file:line), the same on every rank; anything else — another exception, a crash, a case
// that runs past its time limit — fails the test and names the case (seeded, reproducible).
//
//   mpirun -np N md_deck_fuzz --cases 2000 --seed 1 SEED.in ...
//   md_deck_fuzz --seed 1 --write K SEED.in ...      writes case K's deck to caseK.in, to rerun it
#include <Kokkos_Core.hpp>

#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ccl/ccl.hpp"
#include "md/agree.hpp"
#include "md/deck.hpp"
#include "md/driver.hpp"

namespace {

constexpr unsigned kCaseSeconds = 60;
volatile std::sig_atomic_t current_case = -1;

void on_alarm(int) {
  char text[96];
  const int n = std::snprintf(text, sizeof text, "md_deck_fuzz: case %d ran past %u s (a hang)\n",
                              int(current_case), kCaseSeconds);
  (void)!write(2, text, std::size_t(n));
  _exit(3);
}

std::vector<std::vector<std::string>> lines_of_words(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    out.emplace_back();
    for (std::string w; words >> w;) out.back().push_back(w);
  }
  return out;
}

bool is_number(const std::string& w) {
  char* end = nullptr;
  std::strtod(w.c_str(), &end);
  return !w.empty() && *end == '\0';
}

// One to three mutations of a seed deck, chosen by the case's own generator.
std::string mutate(const std::string& seed, std::mt19937_64& rng) {
  auto lines = lines_of_words(seed);
  auto pick = [&](std::size_t n) { return std::size_t(rng() % std::max<std::size_t>(n, 1)); };
  static const char* kNumbers[] = {"0",
                                   "-1",
                                   "-0",
                                   "1e308",
                                   "-1e308",
                                   "nan",
                                   "inf",
                                   "-inf",
                                   "2147483648",
                                   "1e-320",
                                   "99999999999999999999",
                                   "0.5",
                                   "3",
                                   "1e-12"};
  static const char* kWords[] = {"frobnicate", "all",    "*",    "*2",    "2*",
                                 "&",          "\"",     "'",    "#",     "box",
                                 "units",      "run",    "pppm", "ewald", "create_atoms",
                                 "basis",      "region", "mesh", "order"};
  std::string garbage_text;
  const int mutations = 1 + int(rng() % 3);
  for (int m = 0; m < mutations; ++m) {
    auto& line = lines[pick(lines.size())];
    const std::size_t at = pick(line.size() + 1);
    switch (rng() % 10) {
      case 0:  // drop a token
        if (!line.empty()) line.erase(line.begin() + std::ptrdiff_t(pick(line.size())));
        break;
      case 1:  // duplicate a token
        if (!line.empty()) line.insert(line.begin() + std::ptrdiff_t(at), line[pick(line.size())]);
        break;
      case 2: {  // swap two tokens, possibly across lines
        auto& other = lines[pick(lines.size())];
        if (!line.empty() && !other.empty())
          std::swap(line[pick(line.size())], other[pick(other.size())]);
        break;
      }
      case 3:  // a number becomes a special value
        for (auto& w : line) {
          if (is_number(w) && rng() % 2 == 0) w = kNumbers[pick(std::size(kNumbers))];
        }
        break;
      case 4:  // an unknown or misplaced word
        line.insert(line.begin() + std::ptrdiff_t(at), kWords[pick(std::size(kWords))]);
        break;
      case 5: {  // binary garbage
        std::string g;
        for (int k = 0; k < 1 + int(rng() % 40); ++k) g += char(rng() % 256);
        line.insert(line.begin() + std::ptrdiff_t(at), g);
        break;
      }
      case 6:  // a very long line
        line.insert(line.begin() + std::ptrdiff_t(at),
                    std::string(20000 + rng() % 50000, rng() % 2 ? '9' : 'x'));
        break;
      case 7:  // a line deleted
        lines.erase(lines.begin() + std::ptrdiff_t(pick(lines.size())));
        break;
      case 8:  // a line repeated
        lines.insert(lines.begin() + std::ptrdiff_t(pick(lines.size())), lines[pick(lines.size())]);
        break;
      default:  // the deck cut short
        garbage_text = "truncate";
        break;
    }
    if (lines.empty()) lines.emplace_back();
  }
  std::string text;
  for (auto& line : lines) {
    // A run stays short: the fuzzer looks for wrong handling, not for long runs.
    if (line.size() == 2 && line[0] == "run" && is_number(line[1]) &&
        std::strtod(line[1].c_str(), nullptr) > 5) {
      line[1] = "5";
    }
    for (std::size_t k = 0; k < line.size(); ++k) text += (k ? " " : "") + line[k];
    text += '\n';
  }
  if (garbage_text == "truncate") text.resize(pick(text.size() + 1));
  return text;
}

enum Outcome { ran = 0, refused = 1, wrong = 2 };

}  // namespace

int main(int argc, char** argv) {
  ccl::Environment env(argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  const ccl::Group w = ccl::world();
  long cases = 2000, write = -1;
  unsigned long seed = 1;
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cases" && i + 1 < argc) {
      cases = std::atol(argv[++i]);
    } else if (a == "--write" && i + 1 < argc) {
      write = std::atol(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoul(argv[++i], nullptr, 10);
    } else {
      seeds.push_back(md::read_text(a));
    }
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "usage: md_deck_fuzz [--cases N] [--seed S] SEED.in ...\n");
    return 2;
  }
  auto case_text = [&](long k) {
    std::mt19937_64 rng(seed * 1000003ull + std::uint64_t(k));
    return mutate(seeds[std::size_t(k) % seeds.size()], rng);
  };
  if (write >= 0) {
    std::FILE* f = std::fopen(("case" + std::to_string(write) + ".in").c_str(), "w");
    const std::string text = case_text(write);
    const bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f != nullptr) std::fclose(f);
    return ok ? 0 : 2;
  }
  // A fresh directory, so that files earlier runs left (restarts, dumps) change nothing.
  std::string dir;
  if (w.rank() == 0) {
    char pattern[] = "/tmp/md_deck_fuzz_XXXXXX";
    if (mkdtemp(pattern) == nullptr) return 2;
    dir = pattern;
  }
  dir = md::broadcast_string(w, dir);
  if (chdir(dir.c_str()) != 0) return 2;
  std::signal(SIGALRM, on_alarm);
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 2;  // the runs' thermo output
  long tally[3] = {0, 0, 0};
  int failures = 0;
  for (long k = 0; k < cases + 2; ++k) {
    current_case = int(k);
    alarm(kCaseSeconds);
    const std::string name = "case" + std::to_string(k) + ".in";
    Outcome outcome = ran;
    std::string message;
    try {
      std::string text;
      if (k == cases) {
        text = md::shared_deck_text(w, "no/such/deck.in");  // a missing file
      } else if (k == cases + 1) {
        text = md::shared_deck_text(w, "/");  // a directory: unreadable as a deck
      } else {
        text = case_text(k);
      }
      md::run_deck(text, name, md::RunOptions{}, w);
    } catch (const md::DeckError& e) {
      message = e.what();
      const bool located = message.rfind(name + ":", 0) == 0 ||
                           message.rfind("no/such/deck.in:", 0) == 0 || message.rfind("/:", 0) == 0;
      outcome = located ? refused : wrong;
    } catch (const std::exception& e) {
      message = std::string("uncaught ") + typeid(e).name() + ": " + e.what();
      outcome = wrong;
    }
    alarm(0);
    // Every rank must end the case the same way, with the same message.
    const long code = long(outcome) * 1000003 + long(std::hash<std::string>{}(message) % 1000003);
    const long lo = ccl::combine_value(w, code, ccl::min),
               hi = ccl::combine_value(w, code, ccl::max);
    if (outcome == wrong || lo != hi) {
      ++failures;
      std::fprintf(stderr, "md_deck_fuzz: case %ld (seed %lu) on rank %d: %s%s\n", k, seed,
                   w.rank(), lo != hi ? "ranks disagree; " : "", message.substr(0, 300).c_str());
    }
    ++tally[outcome];
  }
  const int all_failures = ccl::combine_value(w, failures, ccl::max);
  if (w.rank() == 0) std::filesystem::remove_all(dir);
  if (w.rank() == 0) {
    std::fprintf(stderr,
                 "md_deck_fuzz: %ld cases on %d ranks (seed %lu): %ld ran, %ld refused with "
                 "file:line, %ld wrong, "
                 "0 crashes, 0 hangs\n",
                 cases + 2, w.size(), seed, tally[ran], tally[refused], tally[wrong]);
  }
  return all_failures == 0 ? 0 : 1;
}
