# The gdmarshal runner image: the static x86_64 binary and nothing else (no shell, no libc).
# No build stage: the binary is the one scripts/release.sh built and checked, so that the image
# and the release assets hold the same bytes. Build it with:
#
#   scripts/release.sh && docker build -t gdmarshal .
#
# `gdmarshal conform` starts a testee with `sh -c`, which this image does not have: to run a
# testee in a container, copy the binary into the testee's own image instead:
#
#   COPY --from=ghcr.io/OWNER/gdmarshal:latest /gdmarshal /usr/local/bin/gdmarshal
FROM scratch
COPY dist/gdmarshal /gdmarshal
WORKDIR /work
ENTRYPOINT ["/gdmarshal"]
