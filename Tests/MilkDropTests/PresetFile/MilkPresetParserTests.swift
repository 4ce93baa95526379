import MilkDrop
import Testing

@Suite("MilkPresetParser")
struct MilkPresetParserTests {
    func parse(_ text: String, path: String = "t.milk") throws -> MilkPresetFile {
        try MilkPresetParser.parse(Array(text.utf8), path: path)
    }

    @Test("a MilkDrop 2 file: version, CRLF, spaces around =, lower-cased keys, numbers like 1.000000 and -0.5")
    func settings() throws {
        let file = try parse("MILKDROP_PRESET_VERSION=201\r\nPSVERSION=2\r\n[preset00]\r\nfDecay=0.980000\r\n"
            + "  zoom = 1.000000 \r\nnWaveMode=7\r\nwave_x=-0.5\r\nb1n=.25\r\nfRating=3e0\r\n")
        #expect(file.version == 201)
        #expect(file.number("FDECAY") == 0.98 && file.values["fdecay"] == 0.98)
        #expect(file.values["zoom"] == 1 && file.values["nwavemode"] == 7)
        #expect(file.values["wave_x"] == -0.5 && file.values["b1n"] == 0.25 && file.values["frating"] == 3)
        #expect(file.values["psversion"] == 2)
        #expect(file.notes.isEmpty)
        #expect(file.encoding == .utf8)
    }

    @Test("a MilkDrop 1.x file: no version, no [preset00] header, per_frame_init_N apart from per_frame_N")
    func milkdrop1() throws {
        let file = try parse("fDecay=0.9\nper_frame_init_1=q1 = 2;\nper_frame_1=zoom = zoom + 0.1*bass;\nper_pixel_1=rot = rad*0.1;\n")
        #expect(file.version == nil)
        #expect(file.perFrameInit.text == "q1 = 2;")
        #expect(file.perFrame.text == "zoom = zoom + 0.1*bass;")
        #expect(file.perPixel.text == "rot = rad*0.1;")
        #expect(file.warpShader == nil && file.compositeShader == nil && !file.hasShaders)
    }

    @Test("numbered lines join in numeric order across gaps, and offsets map back to file lines")
    func codeOrder() throws {
        let file = try parse("[preset00]\nper_frame_10=c=3;\nper_frame_2=b=2;\nper_frame_1=a=1;\nzoom=1\n")
        #expect(file.perFrame.text == "a=1;\nb=2;\nc=3;")
        #expect(file.perFrame.lineCount == 3)
        #expect(file.notes.map(\.description) == ["line 2: code line 10 follows a gap (no line 3): "
            + "MilkDrop stopped reading this block before it; it is kept"])
        #expect(file.perFrame.line(atOffset: 0) == 4)       // "a=1;" came from line 4
        #expect(file.perFrame.line(atOffset: 5) == 3)       // "b=2;"
        #expect(file.perFrame.line(atOffset: 4) == 4)       // the "\n" ending a=1;
        #expect(file.perFrame.line(atOffset: 12) == 2)      // "c=3;" from line 2
        #expect(file.perFrame.line(atOffset: 999) == 2)
        #expect(CodeBlock().line(atOffset: 0) == 0 && CodeBlock().isEmpty)
        #expect(CodeBlock("x=1;\n\ny=2;").line(atOffset: 7) == 3)
    }

    @Test("custom waves and shapes in both spellings; always four of each; indices past 3 are notes")
    func wavesAndShapes() throws {
        let file = try parse("""
            [preset00]
            wavecode_0_enabled=1
            wavecode_0_bSpectrum=1
            wavecode_0_samples=512
            wave_0_init1=t1 = 0;
            wave_0_per_frame1=r = bass;
            wave_0_per_point2=y = value1;
            wave_0_per_point1=x = sample;
            wave_1_per_frame_1=g = 1;
            shapecode_3_thickOutline=1
            shapecode_3_num_inst=12
            shapecode_3_r2=0.5
            shape_3_init1=q1 = 1;
            shape_3_per_frame1=x = instance/num_inst;
            wavecode_4_enabled=1
            wavecode_4_samples=100
            wave_7_per_point1=x = 1;
            wave_7_per_point2=y = 1;
            shape_5_init1=x = 1;
            """)
        #expect(file.waves.count == 4 && file.shapes.count == 4)
        #expect(file.waves[0].values == ["enabled": 1, "bspectrum": 1, "samples": 512])
        #expect(file.waves[0].number("bSpectrum") == 1)
        #expect(file.waves[0].initCode.text == "t1 = 0;")
        #expect(file.waves[0].perFrame.text == "r = bass;")
        #expect(file.waves[0].perPoint.text == "x = sample;\ny = value1;")
        #expect(file.waves[1].perFrame.text == "g = 1;")
        #expect(file.waves[2].values.isEmpty && file.waves[2].perPoint.isEmpty)
        #expect(file.shapes[3].values == ["thickoutline": 1, "num_inst": 12, "r2": 0.5])
        #expect(file.shapes[3].initCode.text == "q1 = 1;")
        #expect(file.shapes[3].perFrame.text == "x = instance/num_inst;")
        #expect(file.values.isEmpty)
        // One note per extra wave or shape (MilkDrop 3 files have up to 16), at its first line.
        #expect(file.notes.map(\.line) == [15, 17, 19])
        #expect(file.notes[1].message == "wave_7_per_point1: there are only 4 custom waves (0…3); wave 7 is ignored")
    }

    @Test("HLSL shader lines lose their backtick; shader blocks of white space only are nil")
    func shaders() throws {
        let file = try parse("[preset00]\nwarp_1=`shader_body\nwarp_2=`{\nwarp_3=`    ret = 1;  \nwarp_4=`}\ncomp_1=`\ncomp_2=`   \n")
        #expect(file.warpShader?.text == "shader_body\n{\n    ret = 1;\n}")
        #expect(file.warpShader?.line(atOffset: 14) == 4)
        #expect(file.compositeShader == nil)
        #expect(file.hasShaders)
    }

    @Test("the first of repeated keys wins, as in MilkDrop and projectM; the others are notes")
    func duplicates() throws {
        let file = try parse("fRating=2\nper_frame_1=a=1;\nFRATING=5\nper_frame_1=a=2;\n")
        #expect(file.values["frating"] == 2)
        #expect(file.perFrame.text == "a=1;")
        #expect(file.notes.map(\.line) == [3, 4])
        #expect(file.notes[0].message == "FRATING repeated: the first one (line 1) is used")
    }

    @Test("values that are not numbers are ignored with a note; a number with trailing text is read as atof does")
    func ignoredValues() throws {
        let file = try parse("zoom=1\nfWaveParam=-\nfRating=3.000000.500000\nrot=1e999\ndx=abc\nsx=5.\n")
        #expect(file.values["fwaveparam"] == nil && file.values["rot"] == nil && file.values["dx"] == nil)
        #expect(file.values["frating"] == 3 && file.values["sx"] == 5)
        #expect(file.notes.map(\.line) == [2, 3, 4, 5])
        #expect(file.notes[0].description == "line 2: fWaveParam=- is not a number: ignored (the default applies)")
        #expect(file.notes[1].message.contains("read as 3.0"))
    }

    @Test("UTF-8 with a byte-order mark, and Windows-1252 bytes read as Latin-1")
    func encodings() throws {
        let bom = try MilkPresetParser.parse([0xEF, 0xBB, 0xBF] + Array("zoom=2\nper_frame_1=// né\n".utf8), path: "b.milk")
        #expect(bom.values["zoom"] == 2 && bom.encoding == .utf8 && bom.perFrame.text == "// né")
        let latin = try MilkPresetParser.parse(Array("zoom=2\nper_frame_1=// n".utf8) + [0xE9, 0x92], path: "l.milk")
        #expect(latin.encoding == .latin1)
        #expect(latin.perFrame.text == "// n\u{E9}\u{92}")
        #expect(latin.values["zoom"] == 2)
    }

    @Test("lone CR line ends, keys separated by white space, comments, lines without values, a second section")
    func looseLines() throws {
        let file = try parse("zoom=2\rper_frame_8 \rrot 0.5\r// zoom=9\r; x\rwavecode_0_\r[preset00]\rsx=3\r[preset01]\rsy=4\r")
        #expect(file.values == ["zoom": 2, "rot": 0.5, "sx": 3])
        #expect(file.perFrame.lineCount == 1 && file.perFrame.isEmpty && file.perFrame.line(atOffset: 0) == 2)
        #expect(file.notes.map(\.line) == [2, 6, 9])   // per_frame_8 alone follows a gap
    }

    @Test("a NUL byte is a binary file, with its line; the message reads path:line: message")
    func binary() {
        #expect {
            try MilkPresetParser.parse(Array("zoom=1\r\nrot=2\r\nx".utf8) + [0, 1], path: "bin.milk")
        } throws: { error in
            guard let e = error as? MilkPresetError else { return false }
            return e.reason == .notText && e.line == 3 && e.description == "bin.milk:3: NUL byte: not a text file"
        }
    }

    @Test("files over the size limit and files with no preset content are errors")
    func unusable() {
        let big = [UInt8](repeating: 0x20, count: MilkDropLimits.fileBytes + 1)
        #expect { try MilkPresetParser.parse(big, path: "big.milk") } throws: {
            ($0 as? MilkPresetError)?.reason == .tooLarge
        }
        #expect { try parse("[preset00]\n// nothing\n\nfWaveParam=-\n", path: "e.milk") } throws: {
            guard let e = $0 as? MilkPresetError else { return false }
            return e.reason == .noPresetContent && e.line == nil && e.description.hasPrefix("e.milk: no preset")
        }
        #expect { try parse("", path: "empty.milk") } throws: { ($0 as? MilkPresetError)?.reason == .noPresetContent }
    }
}
