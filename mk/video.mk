# The public-domain NASA portrait (Eileen Collins) the fake camera of the
# video-delivery specs shows (issue 42): taken from Debian's
# python3-skimage sample data when first needed, not committed, and not
# installed (the package would pull in SciPy).
FACE_PHOTO := web/e2e/.media/astronaut.png
$(FACE_PHOTO):
	@mkdir -p $(@D)
	cd $(@D) && rm -f python3-skimage_*.deb && apt-get download -qq python3-skimage && \
	  dpkg-deb --fsys-tarfile python3-skimage_*.deb | tar -xO ./usr/lib/python3/dist-packages/skimage/data/astronaut.png > astronaut.png.part && \
	  mv astronaut.png.part astronaut.png && rm -f python3-skimage_*.deb

# What measuring video delivery on the device costs (issue 42): the
# browser's CPU per second of answer and the recording's dropped frames,
# with the measurement on and off, and what video mode loads for it.
BENCH_TARGETS += bench-video

.PHONY: bench-video
bench-video: $(BIN) $(FACE_PHOTO)
	cd web && CHROME_PATH=/usr/bin/chromium node bench/video.mjs $(CURDIR)/$(BIN) $(CURDIR)/$(FACE_PHOTO)
