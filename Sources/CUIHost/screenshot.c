/* The UI's window as a binary PPM (P6), read back with XGetImage, for `auhost ui --screenshot`
   and the UI sweep: no toolkit and no ImageMagick in the child. */
#include "ui_host_child.h"

#include <X11/Xutil.h>
#include <stdio.h>

bool screenshot_write(Display *display, Window window, const char *path) {
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes) || attributes.map_state != IsViewable) return false;
    /* XGetImage answers BadMatch for any part off the screen: take the part on it. */
    int x, y;
    Window ignored;
    XTranslateCoordinates(display, window, attributes.root, 0, 0, &x, &y, &ignored);
    Screen *screen = attributes.screen;
    int width = attributes.width, height = attributes.height;
    if (x + width > WidthOfScreen(screen)) width = WidthOfScreen(screen) - x;
    if (y + height > HeightOfScreen(screen)) height = HeightOfScreen(screen) - y;
    if (x < 0 || y < 0 || width <= 0 || height <= 0) return false;
    attributes.width = width, attributes.height = height;
    XImage *image = XGetImage(display, window, 0, 0, (unsigned)width, (unsigned)height, AllPlanes, ZPixmap);
    if (!image) return false;
    FILE *file = fopen(path, "wb");
    bool written = file != NULL;
    if (file) {
        fprintf(file, "P6\n%d %d\n255\n", attributes.width, attributes.height);
        for (int y = 0; y < attributes.height; y++) {
            for (int x = 0; x < attributes.width; x++) {
                unsigned long pixel = XGetPixel(image, x, y);
                unsigned char rgb[3] = {
                    (unsigned char)((pixel & image->red_mask) >> __builtin_ctzl(image->red_mask ? image->red_mask : 1)),
                    (unsigned char)((pixel & image->green_mask) >> __builtin_ctzl(image->green_mask ? image->green_mask : 1)),
                    (unsigned char)((pixel & image->blue_mask) >> __builtin_ctzl(image->blue_mask ? image->blue_mask : 1)),
                };
                fwrite(rgb, 1, 3, file);
            }
        }
        written = fclose(file) == 0;
    }
    XDestroyImage(image);
    return written;
}
