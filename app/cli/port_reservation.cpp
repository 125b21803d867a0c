#include "app/cli/port_reservation.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace tw::cli {

PortReservation PortReservation::loopback() {
  // Bound to every address (not only loopback): a later bind to 127.0.0.1 or 0.0.0.0 without
  // SO_REUSEADDR conflicts with it either way, and it listens on nothing, so nothing is exposed.
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("cannot open a socket: ") + std::strerror(errno));
  const int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    throw std::runtime_error("cannot reserve a free port: " + why);
  }
  PortReservation r;
  r.m_fd = fd;
  r.m_port = ntohs(address.sin_port);
  return r;
}

PortReservation::~PortReservation() { release(); }

PortReservation::PortReservation(PortReservation &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_port(std::exchange(other.m_port, 0)) {}

PortReservation &PortReservation::operator=(PortReservation &&other) noexcept {
  if (this != &other) {
    release();
    m_fd = std::exchange(other.m_fd, -1);
    m_port = std::exchange(other.m_port, 0);
  }
  return *this;
}

void PortReservation::release() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

}  // namespace tw::cli
