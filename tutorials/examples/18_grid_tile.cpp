// Chapter 18: the tiled matmul's grid drawn (18_grid_tile.svg), for 18_tiled_matmul.cu's
// sizes C [M, N] = A [M, K] @ B [K, N], M = 37, N = 21, K = 45, tiles of 16 x 16. A plain C++
// program, so it runs without a GPU: it draws the grid of blocks over C, one block's
// threads, and the tiles of A and B that block loads into shared memory, sliding along K.
// It prints how many floats the naive and the tiled kernel read from global memory.
#include <algorithm>
#include <cstdio>
#include <string>

#include "viz/diagram.h"
#include "viz/svg.h"

using namespace attic;

constexpr int M = 37, N = 21, K = 45, kTile = 16;
constexpr int kPx = 6;  // pixels per matrix element

viz::Diagram d(760, 710);

// A matrix of rows x cols elements with its top-left corner at (x, y), and its name.
void matrix(int x, int y, int rows, int cols, const std::string& name) {
  d.rect(x, y, cols * kPx, rows * kPx, "#f4f4f4");
  d.text(x + cols * kPx / 2, y - 6,
         name + " [" + std::to_string(rows) + ", " + std::to_string(cols) + "]", 13);
}

int main() {
  const int grid_x = (N + kTile - 1) / kTile, grid_y = (M + kTile - 1) / kTile;
  const int bx = 0, by = 1;  // the block drawn: C rows 16..31, columns 0..15
  const int steps = (K + kTile - 1) / kTile;
  // Matmul layout: B above C, A to the left of C, so a row of A and a column of B meet in C.
  const int ax = 20, cy = 390, bxp = 330, by_top = 60;
  matrix(ax, cy, M, K, "A");
  matrix(bxp, by_top, K, N, "B");
  matrix(bxp, cy, M, N, "C");
  // The grid: grid_x x grid_y blocks of 16 x 16 threads, one per element of C. It covers
  // 48 x 32 elements; the threads past C's edges (dashed) compute nothing.
  for (int gy = 0; gy < grid_y; ++gy)
    for (int gx = 0; gx < grid_x; ++gx)
      d.rect(bxp + gx * kTile * kPx, cy + gy * kTile * kPx, kTile * kPx, kTile * kPx, "none", 1,
             "#333", "4 3");
  d.text(bxp + grid_x * kTile * kPx / 2, cy + grid_y * kTile * kPx + 16,
         "grid " + std::to_string(grid_x) + " x " + std::to_string(grid_y) + " blocks", 12);
  d.rect(bxp + bx * kTile * kPx, cy + by * kTile * kPx, kTile * kPx, kTile * kPx, "#d62728", 0.35);
  d.text(bxp + bx * kTile * kPx + kTile * kPx / 2, cy + by * kTile * kPx + kTile * kPx / 2 + 4,
         "block (0, 1)", 11);
  // The tiles the block loads, one pair per step k0 = 0, 16, 32: A's rows of the block,
  // B's columns of the block, 16 wide along K. Past K the tile is filled with zeros.
  for (int s = 0; s < steps; ++s) {
    const int k0 = s * kTile, inside = std::min(kTile, K - k0);  // columns of A before K ends
    const double opacity = 0.2 + 0.2 * s;
    d.rect(ax + k0 * kPx, cy + by * kTile * kPx, inside * kPx, kTile * kPx, viz::series_color(0),
           opacity);
    d.rect(bxp + bx * kTile * kPx, by_top + k0 * kPx, kTile * kPx, inside * kPx,
           viz::series_color(2), opacity);
    if (inside < kTile) {  // the rest of the tile, past K: zeros in shared memory
      d.rect(ax + k0 * kPx, cy + by * kTile * kPx, kTile * kPx, kTile * kPx, "none", 1, "#333",
             "4 3");
      d.rect(bxp + bx * kTile * kPx, by_top + k0 * kPx, kTile * kPx, kTile * kPx, "none", 1,
             "#333", "4 3");
    }
    d.text(ax + k0 * kPx + kTile * kPx / 2, cy + by * kTile * kPx + kTile * kPx / 2 + 4,
           "k0 = " + std::to_string(k0), 11);
    d.text(bxp + bx * kTile * kPx + kTile * kPx / 2, by_top + k0 * kPx + kTile * kPx / 2 + 4,
           "k0 = " + std::to_string(k0), 11);
  }
  d.text(ax + K * kPx / 2, cy + M * kPx + 20, "A's tile slides right along K", 12);
  d.text(bxp + N * kPx + 8, by_top + K * kPx / 2, "B's tile slides down along K", 12, "", "start");
  d.text(bxp + N * kPx + 8, by_top + K * kPx / 2 + 16, "(dashed: past K, zeros)", 12, "", "start");
  // One block of 16 x 16 threads: thread (tx, ty) = (5, 3) owns C(16 + 3, 0 + 5) and, at
  // each step, reads row ty of As and column tx of Bs from shared memory.
  const int tx = 5, ty = 3, ix = 540, iy = 390, t = 12;
  d.text(ix + kTile * t / 2, iy - 6, "block (0, 1): 16 x 16 threads", 13);
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) {
      const bool mine = r == ty && c == tx;
      d.rect(ix + c * t, iy + r * t, t, t, mine ? "#d62728" : "#ffffff", mine ? 0.8 : 1);
    }
  // Its element of C, and the row of A and column of B it needs, read tile by tile.
  const int i = by * kTile + ty, j = bx * kTile + tx;
  d.rect(bxp + j * kPx, cy + i * kPx, kPx, kPx, "#d62728");
  d.line(ax, cy + i * kPx + kPx / 2, ax + K * kPx, cy + i * kPx + kPx / 2, "#d62728", 2, false);
  d.line(bxp + j * kPx + kPx / 2, by_top, bxp + j * kPx + kPx / 2, by_top + K * kPx, "#d62728", 2,
         false);
  d.text(ix, iy + kTile * t + 20, "thread (tx, ty) = (5, 3) computes", 12, "", "start");
  d.text(ix, iy + kTile * t + 36, "C(16·1 + 3, 16·0 + 5) = C(19, 5):", 12, "", "start");
  d.text(ix, iy + kTile * t + 52, "acc += As[3][k] · Bs[k][5], k < 16,", 12, "", "start");
  d.text(ix, iy + kTile * t + 68, "once per step; __syncthreads()", 12, "", "start");
  d.text(ix, iy + kTile * t + 84, "before and after each step", 12, "", "start");
  d.text(380, 22, "tiled matmul: C [37, 21] = A [37, 45] @ B [45, 21], 16 x 16 tiles", 14);
  d.write("18_grid_tile.svg");

  // Global reads. Naive: each C(i, j) reads a row of A and a column of B, 2K floats.
  // Tiled: a block reads its 16 rows of A and 16 columns of B once, a tile per step, so each
  // element of A is read once per block column (grid_x times, not N) and each of B once per
  // block row (grid_y times, not M). Tile slots past the edges are filled with 0, not read.
  const long naive = 2L * M * N * K;
  const long tiled = long(grid_x) * M * K + long(grid_y) * K * N;
  std::printf("grid %d x %d blocks of %d x %d threads, %d steps along K\n", grid_x, grid_y,
              kTile, kTile, steps);
  std::printf("global reads: naive %ld floats, tiled %ld (%.1f times fewer)\n", naive, tiled,
              double(naive) / double(tiled));
  std::printf("wrote 18_grid_tile.svg\n");
  return 0;
}
