#include "md/force2d.hpp"

#include <stdexcept>
#include <tuple>

#include "ccl/collectives.hpp"
#include "md/blocks.hpp"

namespace md {

namespace {

ccl::grids::Grid2D make_grid(const ccl::Group& group, int rows, int cols) {
  if (rows == 0) std::tie(rows, cols) = nearly_square(group.size());
  if (rows * cols != group.size()) {
    throw DeckError("--grid " + std::to_string(rows) + "x" + std::to_string(cols) +
                    " does not have " + std::to_string(group.size()) +
                    " members (the number of ranks)");
  }
  return ccl::grids::Grid2D(group, rows, cols);
}

}  // namespace

Force2d::Force2d(const System& s, const ccl::Group& group, int rows, int cols, std::FILE* log)
    : Decomposition(s, group),
      grid_(make_grid(group, rows, cols)),
      natoms_(static_cast<std::size_t>(s.natoms)) {
  const int R = grid_.rows(), C = grid_.cols();
  if (grid_.row_group().rank() != grid_.col() || grid_.column_group().rank() != grid_.row()) {
    throw std::logic_error("Force2d: row and column groups are not ranked by grid position");
  }
  // Ownership: member (r, c) owns the c-th part of row block r.
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (int w = 0; w < group.size(); ++w) {
    const auto x = block_range(natoms_, R, grid_.row_of(w));
    const auto part = block_range(x.second - x.first, C, grid_.col_of(w));
    ranges.emplace_back(x.first + part.first, x.first + part.second);
  }
  const std::vector<Atom> mine = distribute(s, ranges);
  own_ = ranges[std::size_t(group.rank())];
  for (int w = 0; w < group.rank(); ++w) world_offset_ += owned_counts_[std::size_t(w)];
  row_block_ = block_range(natoms_, R, grid_.row());
  column_block_ = block_range(natoms_, C, grid_.col());
  column_piece_ = {std::max(row_block_.first, column_block_.first),
                   std::min(row_block_.second, column_block_.second)};
  if (column_piece_.second < column_piece_.first) column_piece_.second = column_piece_.first;
  for (int c = 0; c < C; ++c) {
    const auto part = block_range(row_block_.second - row_block_.first, C, c);
    row_counts_.push_back(part.second - part.first);
  }
  for (int r = 0; r < R; ++r) {
    const auto x = block_range(natoms_, R, r);
    const std::size_t lo = std::max(x.first, column_block_.first),
                      hi = std::min(x.second, column_block_.second);
    column_counts_.push_back(hi > lo ? hi - lo : 0);
  }
  own_x_.resize(3 * owned());
  own_f_.resize(3 * owned());
  for (std::size_t i = 0; i < owned(); ++i) {
    for (std::size_t d = 0; d < 3; ++d) own_x_[3 * i + d] = mine[i].x[d];
  }
  // Charges and types of X_r, Y_c and all atoms, moved the way positions will be.
  const std::size_t nx = row_block_.second - row_block_.first,
                    ny = column_block_.second - column_block_.first;
  local_ = AtomArrays(nx + ny, 0, "row and column blocks");
  all_ = AtomArrays(natoms_, 2, "all");
  ccl::concatv(grid_.row_group(), q_, std::span<double>(local_.q.data(), nx), row_counts_);
  ccl::concatv(grid_.row_group(), type_, std::span<int>(local_.type.data(), nx), row_counts_);
  const std::size_t piece = column_piece_.first - row_block_.first,
                    pieces = column_piece_.second - column_piece_.first;
  ccl::concatv(grid_.column_group(), std::span<const double>(local_.q.data() + piece, pieces),
               std::span<double>(local_.q.data() + nx, ny), column_counts_);
  ccl::concatv(grid_.column_group(), std::span<const int>(local_.type.data() + piece, pieces),
               std::span<int>(local_.type.data() + nx, ny), column_counts_);
  ccl::concatv(group, q_, std::span<double>(all_.q.data(), natoms_), owned_counts_);
  local_global_.resize(nx + ny);
  for (std::size_t i = 0; i < nx; ++i) local_global_[i] = row_block_.first + i;
  for (std::size_t j = 0; j < ny; ++j) local_global_[nx + j] = column_block_.first + j;
  const auto [sum_q, sum_q2] = charge_sums();
  in_ = std::make_unique<Interactions>(s, group, sum_q, sum_q2, log);
  if (log != nullptr) std::fprintf(log, "Force decomposition on a %d x %d grid of ranks\n", R, C);
  rebuild_neighbors();
}

void Force2d::exchange_positions() {
  const std::size_t nx = row_block_.second - row_block_.first,
                    ny = column_block_.second - column_block_.first;
  std::vector<std::size_t> rows3(row_counts_), cols3(column_counts_), world3(owned_counts_);
  for (auto* v : {&rows3, &cols3, &world3}) {
    for (std::size_t& c : *v) c *= 3;
  }
  ccl::concatv(grid_.row_group(), own_x_, std::span<double>(local_.x.data(), 3 * nx), rows3);
  const std::size_t piece = column_piece_.first - row_block_.first,
                    pieces = column_piece_.second - column_piece_.first;
  ccl::concatv(grid_.column_group(),
               std::span<const double>(local_.x.data() + 3 * piece, 3 * pieces),
               std::span<double>(local_.x.data() + 3 * nx, 3 * ny), cols3);
  ccl::concatv(group_, own_x_, std::span<double>(all_.x.data(), 3 * natoms_), world3);
}

void Force2d::rebuild_neighbors() {
  wrap_owned(own_x_.data());
  remember_build();
  exchange_positions();
  const std::size_t nx = row_block_.second - row_block_.first;
  in_->build_neighbors(local_.x, 0, nx, nx, local_.x.extent(0), local_global_);
}

Terms Force2d::compute_forces(Timers& timers) {
  const std::size_t nx = row_block_.second - row_block_.first,
                    ny = column_block_.second - column_block_.first;
  clear_forces(local_.f);
  const Terms pair = in_->pair_share(local_.x, local_.q, local_.type, local_.f, timers);
  // Column forces summed over the column; this member folds the piece Y_c ∩ X_r into its X_r.
  double* f = local_.f.data();
  ccl::combine(grid_.column_group(), std::span<double>(f + 3 * nx, 3 * ny),
               std::span<double>(f + 3 * nx, 3 * ny), ccl::sum);
  const std::size_t piece_in_x = column_piece_.first - row_block_.first,
                    piece_in_y = column_piece_.first - column_block_.first;
  for (std::size_t k = 0; k < 3 * (column_piece_.second - column_piece_.first); ++k) {
    f[3 * piece_in_x + k] += f[3 * nx + 3 * piece_in_y + k];
  }
  ccl::combine(grid_.row_group(), std::span<double>(f, 3 * nx), std::span<double>(f, 3 * nx),
               ccl::sum);
  timers.stamp(Section::comm);
  clear_forces(all_.f);
  const Terms total = add_kspace_and_combine(*in_, all_.x, all_.q, all_.f, pair, timers);
  const std::size_t own_in_x = own_.first - row_block_.first;
  for (std::size_t k = 0; k < 3 * owned(); ++k)
    own_f_[k] = f[3 * own_in_x + k] + all_.f.data()[3 * world_offset_ + k];
  return total;
}

}  // namespace md
