// copy_bytes copies exactly the bytes asked for, at every size class (word copies, memcpy, the
// descending copy where this CPU takes it) and every distance between the buffers modulo a page,
// the distances 1-63 that may take the descending copy among them; so does the descending copy
// itself on every CPU; nothing before or after the destination changes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ccl/copy_bytes.hpp"

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::byte kGuard{0xa5};

// A source of `n` bytes at `from_offset` into its page and a destination `distance` bytes past
// it modulo a page: copy_bytes between them leaves the destination equal to the source and its
// neighbours untouched.
template <class Copy>
void expect_exact_copy(std::size_t n, std::size_t from_offset, std::size_t distance, Copy copy) {
  std::vector<std::byte> source_pages(n + 3 * kPage), destination_pages(n + 3 * kPage, kGuard);
  auto page_start = [](std::vector<std::byte>& v) {
    const auto address = reinterpret_cast<std::uintptr_t>(v.data());
    return v.data() + (kPage - address % kPage) % kPage;
  };
  std::byte* from = page_start(source_pages) + from_offset;
  std::byte* to = page_start(destination_pages) + (from_offset + distance) % kPage;
  for (std::size_t i = 0; i < n; ++i) from[i] = static_cast<std::byte>((i * 131 + 7) % 251);
  copy(to, from, n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(to[i], from[i]) << "byte " << i << " of " << n << ", distance " << distance;
  }
  const std::byte* lo = destination_pages.data();
  const std::byte* hi = destination_pages.data() + destination_pages.size();
  for (const std::byte* p = lo; p < to; ++p) ASSERT_EQ(*p, kGuard) << "before, size " << n;
  for (const std::byte* p = to + n; p < hi; ++p) ASSERT_EQ(*p, kGuard) << "after, size " << n;
}

void expect_exact_copy(std::size_t n, std::size_t from_offset, std::size_t distance) {
  expect_exact_copy(n, from_offset, distance, ccl::detail::copy_bytes);
}

TEST(CopyBytes, EverySizeClassAndPageDistance) {
  const std::size_t sizes[] = {0,    1,    7,    8,    9,    24,   32,   33,    100,  2047,
                               2048, 2049, 4095, 4096, 8192, 8200, 8255, 65536, 65601};
  const std::size_t distances[] = {0, 1, 8, 16, 31, 40, 63, 64, 100, 2048, 4032, 4095};
  for (const std::size_t n : sizes) {
    for (const std::size_t distance : distances) {
      expect_exact_copy(n, 16, distance);
      expect_exact_copy(n, 4090, distance);  // the source crosses a page early
    }
  }
}

TEST(CopyBytes, LargerThanTheCacheGoesToMemcpyAndStaysExact) {
  for (const std::size_t distance : {0, 16, 63})
    expect_exact_copy(std::size_t{3} << 20, 16, distance);
}

TEST(CopyBytes, DescendingCopyIsExactAtEveryTail) {
  for (const std::size_t n : {0, 1, 63, 64, 65, 2048, 2111, 8192, 8255})
    for (const std::size_t distance : {16, 63})
      expect_exact_copy(n, 16, distance, ccl::detail::copy_descending);
}

}  // namespace
