#include <sys/socket.h>

class QObject {
public:
	static bool connect(const QObject *a, const char *s, const QObject *b, const char *m);
};

/* Another scope's connect is no socket call. */
void wire(QObject *a, QObject *b, int fd, const struct sockaddr *sa, socklen_t n)
{
	QObject::connect(a, "finished()", b, "quit()"); // safe "c.errors.unchecked-network"
	::connect(fd, sa, n); // want "c.errors.unchecked-network"
}
