"""Reads the sheets of Baidu DeepBench's published results (.xlsx, read as the zip of XML it is, so
no spreadsheet package is needed); imported by scripts/deepbench-to-csv and
scripts/deepbench-rnn-to-csv."""
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def sheets(path):
    z = zipfile.ZipFile(path)
    strings = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS):
            strings.append("".join(t.text or "" for t in si.iter("{%s}t" % NS["m"])))
    names = [s.get("name") for s in ET.fromstring(z.read("xl/workbook.xml")).find("m:sheets", NS)]
    for i, name in enumerate(names):
        rows = []
        for row in ET.fromstring(z.read("xl/worksheets/sheet%d.xml" % (i + 1))).iter("{%s}row" % NS["m"]):
            cells = {}
            for c in row.findall("m:c", NS):
                v = c.find("m:v", NS)
                text = "" if v is None else (v.text or "")
                if c.get("t") == "s" and text:
                    text = strings[int(text)]
                col = "".join(ch for ch in c.get("r") if ch.isalpha())
                cells[col] = text.strip()
            rows.append((int(row.get("r")), cells))
        yield name, rows


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def specs(path):
    """The workbook's "Specs" sheet (GPU, CUDA, cuDNN, driver, ...) as {name: value}."""
    for name, rows in sheets(path):
        if name == "Specs":
            return {c["A"]: c.get("B", "") for _, c in rows if c.get("A")}
    return {}
