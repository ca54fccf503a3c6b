package io.weir.handler.codec.http.multipart;

import io.weir.handler.codec.http.HttpContent;
import java.util.List;

/**
 * A decoder of one POST body fed chunk by chunk. Only called from one thread at a time (normally the channel's
 * event loop).
 *
 * <p><b>Ownership.</b> {@link #offer(HttpContent)} copies what it needs and leaves the content to the caller. The
 * items it produces stay owned by the decoder (and its factory) until {@link #destroy()}, which releases them and
 * deletes their files; to keep one beyond, {@link #removeHttpDataFromClean(InterfaceHttpData) remove it from the
 * clean-up} first.
 */
public interface InterfaceHttpPostRequestDecoder {

    /** Whether the body is multipart. */
    boolean isMultipart();

    /**
     * Decodes the readable bytes of {@code content} (not released here); a {@code LastHttpContent} ends the body.
     *
     * @throws HttpPostRequestDecoder.ErrorDataDecoderException on a malformed body or an exceeded limit; the decoder
     *         has then released everything it held and deleted its files
     * @throws IllegalStateException after {@link #destroy()}
     */
    InterfaceHttpPostRequestDecoder offer(HttpContent content);

    /** Whether {@link #next()} has an item decoded completely and not yet returned. */
    boolean hasNext();

    /** The next completely decoded item, or {@code null}; still owned by the decoder. */
    InterfaceHttpData next();

    /** The item being decoded and not complete yet, or {@code null}. */
    InterfaceHttpData currentPartialHttpData();

    /**
     * Every item decoded. @throws HttpPostRequestDecoder.NotEnoughDataDecoderException before the last content
     */
    List<InterfaceHttpData> getBodyHttpDatas();

    /** The items named {@code name} (case-insensitive), empty if none. @throws NotEnoughDataDecoderException as above */
    List<InterfaceHttpData> getBodyHttpDatas(String name);

    /** The first item named {@code name}, or {@code null}. @throws NotEnoughDataDecoderException as above */
    InterfaceHttpData getBodyHttpData(String name);

    /** Stops the decoder (and factory) from freeing {@code data}; the caller now releases it. */
    void removeHttpDataFromClean(InterfaceHttpData data);

    /** Deletes the content of every item of this request still under clean-up. */
    void cleanFiles();

    /** Releases everything: the undecoded bytes, every item not removed from clean-up, their files. Idempotent. */
    void destroy();
}
