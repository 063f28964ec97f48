// Object deserialization from untrusted streams.
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/text_iarchive.hpp>
#include <boost/asio.hpp>
#include <cereal/archives/json.hpp>
#include <msgpack.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

struct Order {
    int id;
    std::string item;
    template <class Archive> void serialize(Archive &ar, unsigned) { ar & id & item; }
};

using boost::asio::ip::tcp;

// A server reading archived objects straight off the socket.
Order receive_order(tcp::socket &sock)
{
    boost::asio::streambuf sb;
    boost::asio::read_until(sock, sb, "\n\n");
    std::istream is(&sb);
    boost::archive::binary_iarchive ia(is); // want "c.deserialize.untrusted"
    Order o;
    ia >> o;
    return o;
}

// A string stream over bytes received with recv().
Order decode_packet(int fd)
{
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    std::string data(buf, n > 0 ? n : 0);
    std::istringstream ss(data);
    boost::archive::text_iarchive ia(ss); // want "c.deserialize.untrusted"
    Order o;
    ia >> o;
    return o;
}

// cereal reading from stdin.
Order read_order_stdin()
{
    cereal::JSONInputArchive ar(std::cin); // want "c.deserialize.untrusted"
    Order o;
    ar(o);
    return o;
}

// msgpack over a socket buffer.
void decode_rpc(int fd)
{
    char buf[1024];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0)
        return;
    msgpack::object_handle oh = msgpack::unpack(buf, n); // want "c.deserialize.untrusted"
    (void)oh;
}

// The program's own state file: not untrusted input.
Order load_state()
{
    std::ifstream in("/var/lib/app/state.bin");
    boost::archive::binary_iarchive ia(in); // safe "c.deserialize.untrusted"
    Order o;
    ia >> o;
    return o;
}

// A round trip through a string the program produced itself.
Order clone(const Order &src)
{
    std::stringstream ss;
    {
        boost::archive::text_oarchive oa(ss);
        oa << src;
    }
    boost::archive::text_iarchive ia(ss); // safe "c.deserialize.untrusted"
    Order o;
    ia >> o;
    return o;
}

// An unrelated unpack() of the program's own.
int unpack(const char *p);
int use_unpack() { return unpack("abc"); } // safe "c.deserialize.untrusted"
