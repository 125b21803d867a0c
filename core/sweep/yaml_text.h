#pragma once
// Internal to core/sweep: YAML written back as it was read. yaml-cpp's emitter drops the quotes a
// file wrote, and they matter: in a model, '$width' is text while $width names a block parameter,
// and '12' is a string while 12 is a number. This writer keeps every quoted scalar quoted.

#include <yaml-cpp/yaml.h>

#include <string>

namespace tw::sweep::detail {

std::string yamlText(const YAML::Node &root);

}  // namespace tw::sweep::detail
