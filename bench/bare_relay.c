/* The floor of a native stdio proxy: bare_relay.py in C. It copies bytes both ways between its stdio and a child,
 * and does nothing else: what it costs over a direct connection is the extra process and its two pipe hops alone,
 * with no interpreter in the way. bench/bench_proxy.py compiles it with the system's C compiler, when there is one.
 *
 * Build: cc -O2 -o bare_relay bench/bare_relay.c      Run: ./bare_relay -- <server command ...>
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const char *data, ssize_t size) {
    while (size > 0) {
        ssize_t written = write(fd, data, (size_t)size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += written;
        size -= written;
    }
    return 0;
}

int main(int argc, char **argv) {
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "--") == 0) first = 2;
    if (first >= argc) {
        fprintf(stderr, "usage: bare_relay -- <server command ...>\n");
        return 2;
    }
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) {
        perror("pipe");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        execvp(argv[first], argv + first);
        perror("execvp");
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = from_child[0], .events = POLLIN}};
    int targets[2] = {to_child[1], 1};
    static char buffer[65536];
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        int done = 0;
        for (int i = 0; i < 2 && !done; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t got = read(fds[i].fd, buffer, sizeof buffer);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0 || write_all(targets[i], buffer, got) != 0) done = 1;
        }
        if (done) break;
    }
    close(to_child[1]);
    kill(child, SIGTERM);
    waitpid(child, NULL, 0);
    return 0;
}
