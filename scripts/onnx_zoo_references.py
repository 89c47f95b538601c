"""The reference figures scripts/onnx-zoo checks ridge's ONNX imports against: for each
torchvision model, its family, the input it is exported on and torchvision's published
GMACs at that input where one exists.

torchvision's published GFLOPS are "_ops" of each model's first weights entry, shown as
the GFLOPS column of https://pytorch.org/vision/stable/models.html and on each model's
page (e.g. https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html),
transcribed from the weights tables in torchvision/models/*.py of
https://github.com/pytorch/vision (main, 2024). torchvision counts them with its own flop
counter, one multiply-add = one FLOP, so they are GMACs.
"""

CLASSIFICATION = {
    "alexnet": 0.714,
    "vgg11": 7.609, "vgg11_bn": 7.609, "vgg13": 11.308, "vgg13_bn": 11.308,
    "vgg16": 15.47, "vgg16_bn": 15.47, "vgg19": 19.632, "vgg19_bn": 19.632,
    "resnet18": 1.814, "resnet34": 3.664, "resnet50": 4.089, "resnet101": 7.801, "resnet152": 11.514,
    "resnext50_32x4d": 4.23, "resnext101_32x8d": 16.414, "resnext101_64x4d": 15.46,
    "wide_resnet50_2": 11.398, "wide_resnet101_2": 22.753,
    "squeezenet1_0": 0.819, "squeezenet1_1": 0.349,
    "densenet121": 2.834, "densenet161": 7.728, "densenet169": 3.36, "densenet201": 4.291,
    "googlenet": 1.498, "inception_v3": 5.713,
    "shufflenet_v2_x0_5": 0.04, "shufflenet_v2_x1_0": 0.145, "shufflenet_v2_x1_5": 0.296, "shufflenet_v2_x2_0": 0.583,
    "mobilenet_v2": 0.301, "mobilenet_v3_large": 0.217, "mobilenet_v3_small": 0.057,
    "mnasnet0_5": 0.104, "mnasnet0_75": 0.215, "mnasnet1_0": 0.314, "mnasnet1_3": 0.526,
    "efficientnet_b0": 0.386, "efficientnet_b1": 0.687, "efficientnet_b2": 1.088, "efficientnet_b3": 1.827,
    "efficientnet_b4": 4.394, "efficientnet_b5": 10.266, "efficientnet_b6": 19.068, "efficientnet_b7": 37.746,
    "efficientnet_v2_s": 8.366, "efficientnet_v2_m": 24.582, "efficientnet_v2_l": 56.08,
    "regnet_y_400mf": 0.402, "regnet_y_800mf": 0.834, "regnet_y_1_6gf": 1.612, "regnet_y_3_2gf": 3.176,
    "regnet_y_8gf": 8.473, "regnet_y_16gf": 15.912, "regnet_y_32gf": 32.28,
    "regnet_x_400mf": 0.414, "regnet_x_800mf": 0.8, "regnet_x_1_6gf": 1.603, "regnet_x_3_2gf": 3.177,
    "regnet_x_8gf": 7.995, "regnet_x_16gf": 15.941, "regnet_x_32gf": 31.736,
    "convnext_tiny": 4.456, "convnext_small": 8.684, "convnext_base": 15.355, "convnext_large": 34.361,
    "vit_b_16": 17.564, "vit_b_32": 4.409, "vit_l_16": 61.555, "vit_l_32": 15.378,
    "swin_t": 4.491, "swin_s": 8.741, "swin_b": 15.431,
    "swin_v2_t": 5.94, "swin_v2_s": 11.546, "swin_v2_b": 20.325,
    "maxvit_t": 5.558,
}

# Video (torchvision.models.video), one clip [1, 3, frames, H, W] at the weights' crop
# and clip length. r3d_18 / mc3_18: the models page's 2 decimals
# (https://pytorch.org/vision/stable/models/generated/torchvision.models.video.r3d_18.html);
# mvit_v1_b, mvit_v2_s, s3d: "_ops" of video/mvit.py and video/s3d.py (main). r2plus1d_18:
# no figure transcribed (its weights table in the torchvision read has no "_ops"), so it is
# checked against a forward-hook count of the module.
VIDEO = {"r3d_18": 40.70, "mc3_18": 43.34, "r2plus1d_18": None, "s3d": 17.979, "mvit_v1_b": 70.599,
         "mvit_v2_s": 64.224}
CLIP = {"r3d_18": [16, 112, 112], "mc3_18": [16, 112, 112], "r2plus1d_18": [16, 112, 112], "s3d": [16, 224, 224],
        "mvit_v1_b": [16, 224, 224], "mvit_v2_s": [16, 224, 224]}

# Segmentation (torchvision.models.segmentation): "_ops" of the COCO_WITH_VOC_LABELS_V1
# weights in segmentation/{fcn,deeplabv3,lraspp}.py (main), whose transform resizes to
# 520: one 520 x 520 image, the auxiliary classifier included (the weights are built
# with aux_loss=True, and the aux head runs in forward in eval mode too).
SEGMENTATION = {"fcn_resnet50": 152.717, "fcn_resnet101": 232.738, "deeplabv3_resnet50": 178.722,
                "deeplabv3_resnet101": 258.743, "deeplabv3_mobilenet_v3_large": 10.452,
                "lraspp_mobilenet_v3_large": 2.086}
SEGMENTATION_SIZE = 520

# Optical flow (torchvision.models.optical_flow): "_ops" of optical_flow/raft.py (main):
# raft_large 211.007, raft_small 47.655. The input they were counted at is not stated
# there, so the rows are checked against a forward-hook count of the module at the size
# below (two [1, 3, H, W] frames, 12 flow updates, the default) and the published figure
# is shown for information only.
OPTICAL_FLOW = {"raft_small": None, "raft_large": None}
OPTICAL_FLOW_PUBLISHED = {"raft_small": 47.655, "raft_large": 211.007}
OPTICAL_FLOW_SIZE = [368, 496]

# Detection (torchvision.models.detection), eval mode, one [3, S, S] image. Single-stage:
# "_ops" of each model's COCO_V1 weights in detection/*.py (main) at the size below (the
# transform keeps it: 800 is its min_size); ssd300_vgg16's figure is the models page's 2
# decimals. R-CNN: torchvision's figures are counted at 800 on a real image's RoIs, so
# they are checked against scripts/detection-reference's forward-hook count at 320 with
# the RoI heads at the model's own limits (post-NMS top-N, detections per image).
DETECTION = {
    "ssd300_vgg16": 34.86, "ssdlite320_mobilenet_v3_large": 0.583,
    "retinanet_resnet50_fpn": 151.54, "retinanet_resnet50_fpn_v2": 152.238, "fcos_resnet50_fpn": 128.207,
    "fasterrcnn_resnet50_fpn": None, "fasterrcnn_resnet50_fpn_v2": None, "fasterrcnn_mobilenet_v3_large_fpn": None,
    "fasterrcnn_mobilenet_v3_large_320_fpn": None, "maskrcnn_resnet50_fpn": None, "maskrcnn_resnet50_fpn_v2": None,
    "keypointrcnn_resnet50_fpn": None,
}
DETECTION_SIZE = {"ssd300_vgg16": 300, "ssdlite320_mobilenet_v3_large": 320, "retinanet_resnet50_fpn": 800,
                  "retinanet_resnet50_fpn_v2": 800, "fcos_resnet50_fpn": 800}  # else (R-CNN) 320

FAMILIES = {"classification": CLASSIFICATION, "segmentation": SEGMENTATION, "video": VIDEO,
            "optical flow": OPTICAL_FLOW, "detection": DETECTION}


def family(name):
    return next(f for f, models in FAMILIES.items() if name in models)


def published(name):
    """torchvision's GMACs at the exported input, or None where none is comparable."""
    return FAMILIES[family(name)][name]
