package dev.cardcatalog.image;

import com.twelvemonkeys.imageio.stream.ByteArrayImageInputStream;
import java.awt.image.BufferedImage;
import java.io.EOFException;
import java.io.IOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.event.IIOReadProgressListener;
import javax.imageio.event.IIOReadUpdateListener;
import javax.imageio.event.IIOReadWarningListener;
import javax.imageio.spi.IIORegistry;
import javax.imageio.spi.ImageReaderSpi;
import javax.imageio.stream.ImageInputStreamImpl;

/**
 * One kind of ImageIO reader ({@link #jdkJpeg}, {@link #jdkPng}, {@link #twelveMonkeysJpeg}) as an
 * {@link ImageDecoder} uses it: reading image 0 of a body in memory, refusing a size before the pixels are
 * allocated, subsampling to the decoder's longest side, refusing a read the reader warned was cut short, and stopping
 * once the caller's condition holds.
 *
 * <p>Stopping: the condition is asked as the reader consumes its input (each read from the in-memory stream, every
 * 4 KB for the JDK's JPEG reader) and as it outputs rows (ImageIO's progress and update events, after each row of each
 * pass), and once it holds the reader is aborted ({@link ImageReader#abort()}, from the reading thread, as the JDK's
 * JPEG reader requires).
 *
 * <p>Thread-safe: a reader instance serves one read at a time; the pooled kinds keep idle instances for the next read.
 */
final class ImageIoReader {

    private static final String JDK_JPEG_SPI = "com.sun.imageio.plugins.jpeg.JPEGImageReaderSpi";
    private static final String JDK_PNG_SPI = "com.sun.imageio.plugins.png.PNGImageReaderSpi";

    /** The size check the decoder makes of what the reader sees, before any pixel is allocated. */
    @FunctionalInterface
    interface SizeCheck {
        void check(long width, long height) throws ImageDecodeException;
    }

    private final Supplier<ImageReaderSpi> spi;
    /** Idle readers, or null when readers are not pooled. */
    private final ConcurrentLinkedQueue<ImageReader> pool;
    private final int maxDecodedSide;
    private final SizeCheck sizeCheck;

    private ImageIoReader(Supplier<ImageReaderSpi> spi, boolean pooled, int maxDecodedSide, SizeCheck sizeCheck) {
        this.spi = spi;
        this.pool = pooled ? new ConcurrentLinkedQueue<>() : null;
        this.maxDecodedSide = maxDecodedSide;
        this.sizeCheck = sizeCheck;
    }

    /** The JDK's JPEG reader, pooled. */
    static ImageIoReader jdkJpeg(int maxDecodedSide, SizeCheck sizeCheck) {
        ImageReaderSpi jdk = jdkSpi(JDK_JPEG_SPI);
        return new ImageIoReader(() -> jdk, true, maxDecodedSide, sizeCheck);
    }

    /** The JDK's PNG reader, pooled. */
    static ImageIoReader jdkPng(int maxDecodedSide, SizeCheck sizeCheck) {
        ImageReaderSpi jdk = jdkSpi(JDK_PNG_SPI);
        return new ImageIoReader(() -> jdk, true, maxDecodedSide, sizeCheck);
    }

    /** TwelveMonkeys' JPEG reader, not pooled; registered on first use if the class path scan has not. */
    static ImageIoReader twelveMonkeysJpeg(int maxDecodedSide, SizeCheck sizeCheck) {
        return new ImageIoReader(ImageIoReader::twelveMonkeysJpegSpi, false, maxDecodedSide, sizeCheck);
    }

    /**
     * Reads image 0, after checking the size the reader itself sees ({@code sizeCheck}), subsampled to at most
     * {@code maxDecodedSide} pixels on the longer side. A pooled reader goes back to the pool only after a clean read;
     * a reader that failed, or was stopped, is disposed of.
     *
     * @param ignoreMetadata for PNG: the ancillary chunks are not read
     * @param rawType        the reader's raw image type is asked for (no colour conversion by an ICC profile)
     * @param stop           the caller's condition to stop, or null
     * @throws IOException          when the reader refuses the file
     * @throws ImageDecodeException {@code STOPPED}, a size the check refuses, or a premature end or damaged data
     *                              the reader warned of
     */
    BufferedImage read(byte[] body, boolean ignoreMetadata, boolean rawType, BooleanSupplier stop)
            throws IOException, ImageDecodeException {
        ImageDecodeException.throwIfStopped(stop);
        ImageReader reader = pool == null ? null : pool.poll();
        if (reader == null) {
            reader = spi.get().createReaderInstance();
        }
        boolean clean = false;
        WarningRecorder warnings = new WarningRecorder();
        Stopper stopper = stop == null ? null : new Stopper(reader, stop);
        try (ImageInputStreamImpl input = stop == null ? new ByteArrayImageInputStream(body)
                : new StoppableInput(body, stopper)) {
            reader.addIIOReadWarningListener(warnings);
            if (stopper != null) {
                reader.addIIOReadProgressListener(stopper);
                reader.addIIOReadUpdateListener(stopper);
            }
            // For PNG, ignoreMetadata keeps the reader from inflating ancillary chunks (text, ICC profile), which
            // could be compression bombs. JPEG readers need their marker segments (Adobe, ICC) to pick colours.
            reader.setInput(input, false, ignoreMetadata);
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            sizeCheck.check(width, height);
            ImageReadParam param = reader.getDefaultReadParam();
            int longer = Math.max(width, height);
            if (longer > maxDecodedSide) {
                int step = (longer + maxDecodedSide - 1) / maxDecodedSide;
                param.setSourceSubsampling(step, step, 0, 0);
            }
            if (rawType) {
                ImageTypeSpecifier raw = reader.getRawImageType(0);
                if (raw != null) {
                    param.setDestinationType(raw);
                }
            }
            BufferedImage image = reader.read(0, param);
            if (stopper != null && stopper.stopped) {
                // aborted: what the reader returned is incomplete
                throw new ImageDecodeException(ImageDecodeException.Kind.STOPPED,
                        "the decode was stopped by its caller");
            }
            if (warnings.truncated) {
                throw new ImageDecodeException(ImageDecodeException.Kind.TRUNCATED,
                        "the image data ends early (truncated file)");
            }
            if (warnings.segmentEnded) {
                throw new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, "the JPEG's coded data is damaged: "
                        + "a marker stands where image data should be (corrupt data, not a cut file: its end-of-image "
                        + "marker is there)");
            }
            clean = true;
            return image;
        } finally {
            reader.removeIIOReadWarningListener(warnings);
            if (stopper != null) {
                reader.removeIIOReadProgressListener(stopper);
                reader.removeIIOReadUpdateListener(stopper);
            }
            if (clean && pool != null) {
                reader.reset();
                pool.offer(reader);
            } else {
                reader.dispose();
            }
        }
    }

    /** A reader's failure: truncated when an end of data caused it, else damaged. */
    static ImageDecodeException failure(IOException e, String damaged) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof EOFException) {
                return new ImageDecodeException(ImageDecodeException.Kind.TRUNCATED,
                        "the image data ends early (truncated file)", e);
            }
        }
        return new ImageDecodeException(ImageDecodeException.Kind.CORRUPT, damaged, e);
    }

    /** The JDK's own reader of that class, from the ImageIO registry. */
    private static ImageReaderSpi jdkSpi(String className) {
        Iterator<ImageReaderSpi> spis = IIORegistry.getDefaultInstance().getServiceProviders(ImageReaderSpi.class, false);
        while (spis.hasNext()) {
            ImageReaderSpi spi = spis.next();
            if (spi.getClass().getName().equals(className)) {
                return spi;
            }
        }
        throw new IllegalStateException("the JDK's ImageIO reader " + className + " is missing");
    }

    /**
     * TwelveMonkeys' JPEG reader. It finds the JDK reader it delegates to when it is registered, so register it if
     * the class path scan has not (in some class loader set-ups it does not).
     */
    private static ImageReaderSpi twelveMonkeysJpegSpi() {
        IIORegistry registry = IIORegistry.getDefaultInstance();
        ImageReaderSpi spi = registry.getServiceProviderByClass(
                com.twelvemonkeys.imageio.plugins.jpeg.JPEGImageReaderSpi.class);
        if (spi == null) {
            spi = new com.twelvemonkeys.imageio.plugins.jpeg.JPEGImageReaderSpi();
            registry.registerServiceProvider(spi, ImageReaderSpi.class);
        }
        return spi;
    }

    /**
     * Aborts a read once the caller's condition holds, from the reader's own events: ImageIO's progress and update
     * events come from the reading thread (the JDK's JPEG reader refuses {@code abort()} from any other), after each
     * row of each pass it outputs.
     */
    private static final class Stopper implements IIOReadProgressListener, IIOReadUpdateListener {
        private final ImageReader reader;
        private final BooleanSupplier stop;
        /** Once the condition held: it is not asked again during this read. */
        boolean stopped;

        Stopper(ImageReader reader, BooleanSupplier stop) {
            this.reader = reader;
            this.stop = stop;
        }

        /** Whether to stop: asks the caller's condition until it holds once; the reader is aborted then. */
        boolean stop() {
            if (!stopped && stop.getAsBoolean()) {
                stopped = true;
                reader.abort();
            }
            return stopped;
        }

        private void poll() {
            stop();
        }

        @Override
        public void imageProgress(ImageReader source, float percentageDone) {
            poll();
        }

        @Override
        public void imageUpdate(ImageReader source, BufferedImage theImage, int minX, int minY, int width,
                int height, int periodX, int periodY, int[] bands) {
            poll();
        }

        @Override
        public void passStarted(ImageReader source, BufferedImage theImage, int pass, int minPass, int maxPass,
                int minX, int minY, int periodX, int periodY, int[] bands) {
            poll();
        }

        @Override
        public void passComplete(ImageReader source, BufferedImage theImage) {
            poll();
        }

        @Override
        public void imageStarted(ImageReader source, int imageIndex) {
            poll();
        }

        @Override
        public void sequenceStarted(ImageReader source, int minIndex) {
        }

        @Override
        public void sequenceComplete(ImageReader source) {
        }

        @Override
        public void imageComplete(ImageReader source) {
        }

        @Override
        public void thumbnailStarted(ImageReader source, int imageIndex, int thumbnailIndex) {
        }

        @Override
        public void thumbnailProgress(ImageReader source, float percentageDone) {
        }

        @Override
        public void thumbnailComplete(ImageReader source) {
        }

        @Override
        public void readAborted(ImageReader source) {
        }

        @Override
        public void thumbnailPassStarted(ImageReader source, BufferedImage theThumbnail, int pass, int minPass,
                int maxPass, int minX, int minY, int periodX, int periodY, int[] bands) {
        }

        @Override
        public void thumbnailUpdate(ImageReader source, BufferedImage theThumbnail, int minX, int minY, int width,
                int height, int periodX, int periodY, int[] bands) {
        }

        @Override
        public void thumbnailPassComplete(ImageReader source, BufferedImage theThumbnail) {
        }
    }

    /**
     * An image body in memory as an ImageIO stream that fails a read once the caller's condition holds: the JDK's
     * JPEG reader pulls its input 4 KB at a time from native code, and a read that throws ends the native decode
     * (its error handler unwinds to the reader), so a decode that consumes input is stopped within 4 KB of it.
     * Single bytes are checked every 4,096 reads.
     */
    private static final class StoppableInput extends ImageInputStreamImpl {
        private final byte[] data;
        private final Stopper stop;
        private int singleReads;

        StoppableInput(byte[] data, Stopper stop) {
            this.data = data;
            this.stop = stop;
        }

        private void check() throws IOException {
            if (stop.stop()) {
                throw new IOException("the decode was stopped by its caller");
            }
        }

        @Override
        public int read() throws IOException {
            if ((++singleReads & 0xFFF) == 0) {
                check();
            }
            bitOffset = 0;
            return streamPos < data.length ? data[(int) streamPos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            check();
            if (off < 0 || len < 0 || off + len > b.length) {
                throw new IndexOutOfBoundsException("off " + off + ", len " + len + ", buffer " + b.length);
            }
            bitOffset = 0;
            if (len == 0) {
                return 0;
            }
            if (streamPos >= data.length) {
                return -1;
            }
            int n = (int) Math.min(len, data.length - streamPos);
            System.arraycopy(data, (int) streamPos, b, off, n);
            streamPos += n;
            return n;
        }

        @Override
        public long length() {
            return data.length;
        }

        @Override
        public boolean isCached() {
            return true;
        }

        @Override
        public boolean isCachedMemory() {
            return true;
        }
    }

    /**
     * Notes libjpeg's warnings of data that stops: "Premature end of JPEG file" (the input ran out: truncated) and
     * "Corrupt JPEG data: premature end of data segment" (a marker met inside the coded data). A JPEG reaches the
     * reader only with its end-of-image marker ({@link ImageDecoder#checkJpeg}), so the second is damage, most often a
     * bit flipped into a marker's 0xFF, not a cut file. Either way the picture is incomplete and is refused.
     */
    private static final class WarningRecorder implements IIOReadWarningListener {
        boolean truncated;
        boolean segmentEnded;

        @Override
        public void warningOccurred(ImageReader source, String warning) {
            String text = warning == null ? "" : warning.toLowerCase(Locale.ROOT);
            if (text.contains("premature end of data segment")) {
                segmentEnded = true;
            } else if (text.contains("premature end")) {
                truncated = true;
            }
        }
    }
}
