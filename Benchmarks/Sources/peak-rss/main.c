// peak-rss: runs a command and prints its peak resident memory and wall time.
//
//     peak-rss OUTPUT COMMAND [ARGUMENT…]   → prints "<peak kB> <seconds>" on stdout
//
// The command's stdout goes to OUTPUT, its stderr to /dev/null. Peak memory is the
// child's ru_maxrss from wait4, which is its VmHWM at exit. Linux keeps the high-water
// mark across execve, so the measuring process must be small: a large parent that
// spawned the command itself would report its own size. This helper is a few hundred kB.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peak-rss OUTPUT COMMAND [ARGUMENT...]\n");
        return 64;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 1; }
    if (pid == 0) {
        int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (out < 0 || null < 0) _exit(127);
        dup2(out, 1);
        dup2(null, 2);
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {}
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%ld %.6f\n", usage.ru_maxrss, seconds);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
