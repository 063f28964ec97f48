/* msgpack-c decoding of network data. */
#include <msgpack.h>
#include <sys/socket.h>

int handle_datagram(int sock)
{
	char buf[65536];
	msgpack_unpacked msg;
	size_t off = 0;
	ssize_t n = recvfrom(sock, buf, sizeof buf, 0, NULL, NULL);

	if (n <= 0)
		return -1;
	msgpack_unpacked_init(&msg);
	while (msgpack_unpack_next(&msg, buf, (size_t)n, &off) == MSGPACK_UNPACK_SUCCESS) { // want "c.deserialize.untrusted"
		msgpack_object_print(stdout, msg.data);
	}
	msgpack_unpacked_destroy(&msg);
	return 0;
}

/* Decoding a buffer the program packed itself. */
int roundtrip(const msgpack_sbuffer *sbuf)
{
	msgpack_unpacked msg;
	size_t off = 0;
	int rc;

	msgpack_unpacked_init(&msg);
	rc = msgpack_unpack_next(&msg, sbuf->data, sbuf->size, &off); // safe "c.deserialize.untrusted"
	msgpack_unpacked_destroy(&msg);
	return rc;
}
