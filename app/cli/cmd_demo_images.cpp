// `torchwright demo-images DIR`: draws the shapes image set (circle, square, triangle) that the
// image-folder example trains on, so it runs without downloading anything.

#include "app/cli/commands.h"
#include "app/cli/usage.h"

#include "core/data/shape_images.h"

#include <cstdio>
#include <string>

namespace tw::cli {

int runDemoImages(const CliArgs &args) {
  if (args.positionals.size() != 1) return usageError("demo-images");
  data::ShapeImageOptions options;
  options.perClass = integerOption(args, "--per-class", 300, 1, 1000000);
  options.size = integerOption(args, "--size", 32, 4, 4096);
  options.colour = !args.hasFlag("--gray");
  const int64_t written = data::writeShapeImages(args.positionals[0], options);
  std::printf("wrote %lld images (%lld per class, %lldx%lld %s) to %s/{circle,square,triangle}\n",
              static_cast<long long>(written), static_cast<long long>(options.perClass),
              static_cast<long long>(options.size), static_cast<long long>(options.size),
              options.colour ? "RGB" : "gray", args.positionals[0].c_str());
  return 0;
}

}  // namespace tw::cli
