#pragma once
// A small image-folder dataset drawn from scratch: circles, squares and triangles of random size,
// position, brightness and colour on a noisy background, one PNG per file, one subfolder per
// class. It lets the image-folder example and its tests run without downloading anything.
//
//   tw::data::writeShapeImages("/tmp/shapes", {.perClass = 100, .size = 32, .seed = 1});
//   // -> /tmp/shapes/{circle,square,triangle}/000.png ...

#include <cstdint>
#include <string>

namespace tw::data {

struct ShapeImageOptions {
  int64_t perClass = 100;
  int64_t size = 32;       // square images, pixels
  uint64_t seed = 1;
  bool colour = true;      // RGB; false: gray
};

// Creates the folder (and class subfolders) when missing; returns the number of files written.
// Throws std::runtime_error naming the file that could not be written.
int64_t writeShapeImages(const std::string &dir, const ShapeImageOptions &options);

}  // namespace tw::data
