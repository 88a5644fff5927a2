// A testee for `gdmarshal conform` in C#, with nothing but the standard library
// (docs/conformance.md).
//
// It implements part of Godot's binary Variant format (Nil, bool, int, float, String, Vector2,
// Array, Dictionary, PackedByteArray; Godot 3.x and 4.x) and the testee protocol: one JSON
// object per line on stdin, one answer per line on stdout. What it does not handle it answers
// with "skipped", never with a guess. To wrap your own library, replace DecodeValue and
// EncodeValue (or call your library from them) and keep the protocol part (class Program).
// Json.cs beside it is a small JSON reader and writer, because Mono has no System.Text.Json.
//
// With .NET 8 (GdmarshalTestee.csproj beside this file), from the top of the repository:
//
//     dotnet build -c Release testees/csharp
//     gdmarshal conform --testee "dotnet testees/csharp/bin/Release/net8.0/GdmarshalTestee.dll" --godot 4.6
//
// or --testee "dotnet run -c Release --project testees/csharp" (build it first: a build on the
// first request can outlast the handshake timeout). With Mono (Debian: apt-get install
// mono-mcs, which brings the runtime):
//
//     mkdir -p /tmp/cskit
//     mcs -r:System.Numerics.dll -optimize+ -out:/tmp/cskit/GdmarshalTestee.exe testees/csharp/*.cs
//     gdmarshal conform --testee "mono /tmp/cskit/GdmarshalTestee.exe" --godot 4.6
//
// The same source builds with both: C# 7, no implicit usings, no nullable annotations, and the
// standard library only (no NuGet package).
//
// GDMARSHAL_TESTEE_BROKEN=cap-65535 makes it a deliberately broken variant that refuses arrays
// and dictionaries of more than 65,535 elements (a 16-bit count), which the stress cases catch.
//
// Licensed MIT OR Apache-2.0: copy it into your own project and change it freely.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Numerics;
using System.Text;
using System.Threading;

namespace Gdmarshal.Testee
{
    /// <summary>This testee does not handle the case: the answer is "skipped".</summary>
    public sealed class SkipException : Exception
    {
        public SkipException(string message) : base(message) { }
    }

    /// <summary>The input is refused, as the engines refuse it; Kind is the protocol's word for why.</summary>
    public sealed class RejectException : Exception
    {
        public readonly string Kind;

        public RejectException(string message, string kind) : base(message)
        {
            Kind = kind;
        }
    }

    // ---- the protocol ----

    public static class Program
    {
        private static readonly string[] TypeNames =
            { "Nil", "bool", "int", "float", "String", "Vector2", "Array", "Dictionary", "PackedByteArray" };

        private static int exitCode;

        public static int Main()
        {
            // Requests can nest 2048 JSON levels deep (1024-level values) and the JSON reader is
            // recursive: it runs on a thread with a large stack.
            var thread = new Thread(Serve, 256 * 1024 * 1024);
            thread.Start();
            thread.Join();
            return exitCode;
        }

        // Answers are written in order, one line each, and flushed: the runner waits for each.
        private static void Serve()
        {
            try
            {
                var input = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false), false, 1 << 16);
                var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 16);
                string line;
                while ((line = input.ReadLine()) != null)
                {
                    if (string.IsNullOrWhiteSpace(line)) continue;
                    var request = Json.Parse(line) as JsonObject;
                    if (request == null) throw new FormatException("a request is not a JSON object");
                    output.Write(Json.Write(Answer(request)) + "\n");
                    output.Flush();
                }
            }
            catch (Exception e)
            {
                // A request it cannot read is a bug on one side or the other: say so and stop.
                Console.Error.WriteLine("GdmarshalTestee: " + e);
                exitCode = 1;
            }
        }

        private static JsonObject Answer(JsonObject request)
        {
            string op = request.Get("op") as string;
            if (op == "hello") return Hello();
            var answer = new JsonObject();
            if (request.Has("id")) answer.Set("id", request.Get("id"));
            int major;
            if (!TryMajor(request.Get("godot"), out major)) return answer.Set("skipped", "only single-precision 3.x and 4.x");
            if (Truthy(request.Get("objects"))) return answer.Set("skipped", "objects are not implemented here");
            try
            {
                return Run(op, request, major, answer);
            }
            catch (SkipException e)
            {
                return answer.Set("skipped", e.Message);
            }
            catch (RejectException e)
            {
                return answer.Set("ok", false).Set("error", e.Message).Set("kind", e.Kind);
            }
        }

        // "4.6" is 4, "3" is 3 (no "godot" means 4); double-precision builds are not handled.
        private static bool TryMajor(object godotMember, out int major)
        {
            string godot = !Truthy(godotMember) ? "4" : godotMember as string ?? Json.Write(godotMember);
            major = 0;
            return !godot.Contains("-double")
                && int.TryParse(godot.Split('.')[0], NumberStyles.None, CultureInfo.InvariantCulture, out major)
                && Codec.Handles(major);
        }

        private static JsonObject Run(string op, JsonObject request, int major, JsonObject answer)
        {
            if (op == "decode")
            {
                var reader = new ByteReader(Hex.Decode(request.Get("input") as string));
                JsonObject value = Codec.DecodeValue(reader, major, 0);
                return answer.Set("ok", true).Set("value", value).Set("consumed", reader.Position);
            }
            if (op == "encode")
            {
                var writer = new ByteWriter();
                Codec.EncodeValue(request.Get("value"), major, writer, 0);
                return answer.Set("ok", true).Set("output", writer.ToHex());
            }
            return answer.Set("ok", false).Set("error", "unknown op " + op);
        }

        private static JsonObject Hello()
        {
            string broken = Codec.Broken;
            return new JsonObject()
                .Set("name", "GdmarshalTestee.cs (example)" + (broken.Length > 0 ? " (broken: " + broken + ")" : ""))
                .Set("protocol", 1)
                .Set("versions", Strings("3", "4"))
                .Set("capabilities", Strings("decode", "encode", "reencode"))
                .Set("types", Strings(TypeNames));
        }

        private static List<object> Strings(params string[] items)
        {
            return new List<object>(items);
        }

        // JavaScript's truthiness, as the Node kit reads "objects", "godot" and a bool's value.
        internal static bool Truthy(object v)
        {
            if (v == null) return false;
            if (v is bool) return (bool)v;
            if (v is string) return ((string)v).Length > 0;
            var number = v as JsonNumber;
            if (number != null)
            {
                double x;
                return !double.TryParse(number.Text, NumberStyles.Float, CultureInfo.InvariantCulture, out x) || x != 0;
            }
            return true;
        }
    }

    // ---- the codec: replace DecodeValue and EncodeValue with calls to your library ----

    public static class Codec
    {
        private const uint Flag64 = 1 << 16;
        // Deeper values are left to real implementations (the engines limit nesting at 1024 levels).
        private const int MaxDepth = 64;

        // Wire ids of the types handled here, per major version (Godot 4 renumbered them).
        private static readonly Dictionary<string, uint> Ids3 = new Dictionary<string, uint>
        {
            { "Nil", 0 }, { "bool", 1 }, { "int", 2 }, { "float", 3 }, { "String", 4 }, { "Vector2", 5 },
            { "Dictionary", 18 }, { "Array", 19 }, { "PackedByteArray", 20 },
        };
        private static readonly Dictionary<string, uint> Ids4 = new Dictionary<string, uint>
        {
            { "Nil", 0 }, { "bool", 1 }, { "int", 2 }, { "float", 3 }, { "String", 4 }, { "Vector2", 5 },
            { "Dictionary", 27 }, { "Array", 28 }, { "PackedByteArray", 29 },
        };

        public static readonly string Broken = Environment.GetEnvironmentVariable("GDMARSHAL_TESTEE_BROKEN") ?? "";

        public static bool Handles(int major)
        {
            return major == 3 || major == 4;
        }

        private static Dictionary<string, uint> Ids(int major)
        {
            return major == 3 ? Ids3 : Ids4;
        }

        // Number of types each major version has: ids from here up are invalid.
        private static uint VariantMax(int major)
        {
            return major == 3 ? 27u : 39u;
        }

        private static string TypeName(int major, uint id)
        {
            foreach (var entry in Ids(major))
            {
                if (entry.Value == id) return entry.Key;
            }
            return null;
        }

        private static void Capped(long count)
        {
            if (Broken == "cap-65535" && count > 65535)
            {
                throw new RejectException("more than 65,535 elements are not supported", "bad-count");
            }
        }

        private static JsonObject Node(string type, object value)
        {
            return new JsonObject().Set("type", type).Set("value", value);
        }

        // ---- decode ----

        /// <summary>Decodes one value as bytes_to_var would, into tagged JSON.</summary>
        public static JsonObject DecodeValue(ByteReader r, int major, int depth)
        {
            if (depth > MaxDepth) throw new SkipException("nesting deeper than " + MaxDepth);
            uint header = r.U32();
            uint typeId = header & 0xff;
            uint flags = header >> 16;
            if (typeId >= VariantMax(major)) throw new RejectException("unknown type id " + typeId, "bad-type");
            string name = TypeName(major, typeId);
            if (name == null) throw new SkipException("type id " + typeId + " is not implemented here");
            bool wide = (header & Flag64) != 0;
            if ((header & 0xff00) != 0 || (flags & ~1u) != 0 || (wide && name != "int" && name != "float"))
            {
                throw new SkipException("header flags are not handled here");
            }
            switch (name)
            {
                case "Nil": return new JsonObject().Set("type", "Nil");
                case "bool": return Node("bool", r.U32() != 0);
                case "int": return Node("int", (wide ? (long)r.U64() : (int)r.U32()).ToString(CultureInfo.InvariantCulture));
                case "float": return DecodeFloat(r, wide);
                case "String": return DecodeString(r);
                case "Vector2": return DecodeVector2(r);
                case "Array": return DecodeArray(r, major, depth);
                case "Dictionary": return DecodeDictionary(r, major, depth);
                default: return DecodePackedBytes(r);
            }
        }

        private static JsonObject DecodeFloat(ByteReader r, bool wide)
        {
            if (wide) return Node("float", FloatTokens.F64Token(FloatTokens.F64(r.U64())));
            float x = FloatTokens.F32(r.U32());
            if (float.IsNaN(x)) throw new SkipException("f32 NaN widening is not handled here");
            return Node("float", FloatTokens.F64Token(x));
        }

        private static JsonObject DecodeString(ByteReader r)
        {
            long n = r.Count("string length", true);
            int start = r.Take(n);
            r.Take(Padding(n));
            byte[] data = r.Data;
            bool bom = n >= 3 && data[start] == 0xef && data[start + 1] == 0xbb && data[start + 2] == 0xbf;
            if (bom || Array.IndexOf(data, (byte)0, start, (int)n) >= 0)
            {
                throw new SkipException("NUL bytes and byte-order marks are not handled here");
            }
            try
            {
                return Node("String", StrictUtf8.GetString(data, start, (int)n));
            }
            catch (DecoderFallbackException)
            {
                throw new SkipException("invalid UTF-8 is not handled here");
            }
        }

        private static readonly Encoding StrictUtf8 = new UTF8Encoding(false, true);

        private static JsonObject DecodeVector2(ByteReader r)
        {
            // Components are real_t (f32 here), written as their exact bits.
            string x = FloatTokens.F32Bits(r.U32());
            string y = FloatTokens.F32Bits(r.U32());
            return Node("Vector2", new List<object> { x, y });
        }

        private static JsonObject DecodeArray(ByteReader r, int major, int depth)
        {
            long count = r.U32() & 0x7fffffff;
            Capped(count);
            // No capacity from the count: it is not checked against the bytes left.
            var items = new List<object>();
            for (long i = 0; i < count; i++) items.Add(DecodeValue(r, major, depth + 1));
            return Node("Array", items);
        }

        private static JsonObject DecodeDictionary(ByteReader r, int major, int depth)
        {
            long count = r.U32() & 0x7fffffff;
            Capped(count);
            var pairs = new List<object>();
            var seen = new HashSet<string>();
            for (long i = 0; i < count; i++)
            {
                JsonObject key = DecodeValue(r, major, depth + 1);
                JsonObject value = DecodeValue(r, major, depth + 1);
                if (!seen.Add(KeyIdentity.Of(key))) throw new SkipException("duplicate dictionary keys are not handled here");
                pairs.Add(new List<object> { key, value });
            }
            return Node("Dictionary", pairs);
        }

        private static JsonObject DecodePackedBytes(ByteReader r)
        {
            long n = r.Count("byte count", false);
            int start = r.Take(n);
            // The engines do not check that the padding is there, but count it as consumed.
            r.Position += (int)Padding(n);
            return Node("PackedByteArray", Hex.Encode(r.Data, start, (int)n));
        }

        private static long Padding(long n)
        {
            return (4 - n % 4) % 4;
        }

        // ---- encode ----

        /// <summary>Encodes a tagged-JSON value as var_to_bytes would.</summary>
        public static void EncodeValue(object node, int major, ByteWriter w, int depth)
        {
            if (depth > MaxDepth) throw new SkipException("nesting deeper than " + MaxDepth);
            var v = node as JsonObject;
            string name = v == null ? null : v.Get("type") as string;
            if (name == "PoolByteArray") name = "PackedByteArray";
            if (name == "Real") name = "float";
            uint id;
            if (name == null || !Ids(major).TryGetValue(name, out id))
            {
                throw new SkipException("type " + (name ?? "?") + " is not implemented here");
            }
            object value = v.Get("value");
            switch (name)
            {
                case "Nil": w.U32(id); break;
                case "bool": w.U32(id); w.U32(Program.Truthy(value) ? 1u : 0u); break;
                case "int": EncodeInt(value, id, w); break;
                case "float": EncodeFloat(value as string, id, w); break;
                case "String": EncodeString(value, id, w); break;
                case "Vector2": EncodeVector2(value as List<object>, id, w); break;
                case "Array": EncodeArray(v, major, id, w, depth); break;
                case "Dictionary": EncodeDictionary(v, major, id, w, depth); break;
                default: w.U32(id); w.Padded(Hex.Decode(value as string)); break;
            }
        }

        private static void EncodeInt(object value, uint id, ByteWriter w)
        {
            // A 64-bit int is a decimal string; a JSON number is accepted too.
            string text = value is JsonNumber ? ((JsonNumber)value).Text : value as string;
            long x;
            if (text == null || !long.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out x))
            {
                throw new SkipException("int " + Json.Write(value) + " is not a 64-bit integer");
            }
            if (x >= int.MinValue && x <= int.MaxValue)
            {
                w.U32(id);
                w.U32((uint)(int)x);
            }
            else
            {
                w.U32(id | Flag64);
                w.U64((ulong)x);
            }
        }

        private static void EncodeFloat(string token, uint id, ByteWriter w)
        {
            ulong bits = FloatTokens.TokenBits64(token);
            double x = FloatTokens.F64(bits);
            float narrow = (float)x;
            // Godot writes 32 bits when the value survives the round trip through f32.
            if (!double.IsNaN(x) && (double)narrow == x)
            {
                w.U32(id);
                w.U32(FloatTokens.Bits(narrow));
            }
            else
            {
                w.U32(id | Flag64);
                w.U64(bits);
            }
        }

        private static void EncodeString(object value, uint id, ByteWriter w)
        {
            var text = value as string;
            if (text == null)
            {
                throw new SkipException("3.x strings of code units ({\"code_units\": [...]}) are not handled here");
            }
            w.U32(id);
            w.Padded(Encoding.UTF8.GetBytes(text));
        }

        private static void EncodeVector2(List<object> tokens, uint id, ByteWriter w)
        {
            w.U32(id);
            foreach (object token in tokens) w.U32(FloatTokens.TokenBits32(token as string));
        }

        private static void EncodeArray(JsonObject v, int major, uint id, ByteWriter w, int depth)
        {
            if (v.Has("element_type")) throw new SkipException("typed arrays are not implemented here");
            var items = (List<object>)v.Get("value");
            Capped(items.Count);
            w.U32(id);
            w.U32((uint)items.Count);
            foreach (object item in items) EncodeValue(item, major, w, depth + 1);
        }

        private static void EncodeDictionary(JsonObject v, int major, uint id, ByteWriter w, int depth)
        {
            if (v.Has("key_type") || v.Has("value_type")) throw new SkipException("typed dictionaries are not implemented here");
            var pairs = (List<object>)v.Get("value");
            Capped(pairs.Count);
            w.U32(id);
            w.U32((uint)pairs.Count);
            foreach (object pair in pairs)
            {
                var kv = (List<object>)pair;
                EncodeValue(kv[0], major, w, depth + 1);
                EncodeValue(kv[1], major, w, depth + 1);
            }
        }
    }

    // ---- bytes ----

    /// <summary>Reads little-endian fields; a short read is the engines' "truncated".</summary>
    public sealed class ByteReader
    {
        public readonly byte[] Data;
        public int Position;

        public ByteReader(byte[] data)
        {
            Data = data;
        }

        /// <summary>Claims n bytes and returns where they start.</summary>
        public int Take(long n)
        {
            if (n < 0 || Position + n > Data.Length)
            {
                throw new RejectException("truncated at offset " + Position + ": " + n + " bytes wanted", "truncated");
            }
            int start = Position;
            Position += (int)n;
            return start;
        }

        public uint U32()
        {
            int i = Take(4);
            return Data[i] | (uint)Data[i + 1] << 8 | (uint)Data[i + 2] << 16 | (uint)Data[i + 3] << 24;
        }

        public ulong U64()
        {
            ulong low = U32();
            return low | (ulong)U32() << 32;
        }

        /// <summary>A length field. One the bytes left cannot hold (with its padding, for a String)
        /// is the engines' "bad count", not a truncation.</summary>
        public long Count(string what, bool padded)
        {
            long n = U32();
            long pad = padded ? (4 - n % 4) % 4 : 0;
            long left = Data.Length - Position;
            if (n > 0x7fffffff || n + pad > left)
            {
                throw new RejectException(what + " " + n + " does not fit in the " + left + " bytes left", "bad-count");
            }
            return n;
        }
    }

    /// <summary>Collects little-endian fields.</summary>
    public sealed class ByteWriter
    {
        private readonly MemoryStream buffer = new MemoryStream();

        public void U32(uint x)
        {
            for (int i = 0; i < 4; i++) buffer.WriteByte((byte)(x >> (8 * i)));
        }

        public void U64(ulong x)
        {
            U32((uint)x);
            U32((uint)(x >> 32));
        }

        /// <summary>A length, the bytes and zeros up to a multiple of 4.</summary>
        public void Padded(byte[] raw)
        {
            U32((uint)raw.Length);
            buffer.Write(raw, 0, raw.Length);
            for (int i = raw.Length; i % 4 != 0; i++) buffer.WriteByte(0);
        }

        public string ToHex()
        {
            return Hex.Encode(buffer.GetBuffer(), 0, (int)buffer.Length);
        }
    }

    public static class Hex
    {
        private const string Digits = "0123456789abcdef";

        public static string Encode(byte[] data, int start, int count)
        {
            var chars = new char[count * 2];
            for (int i = 0; i < count; i++)
            {
                byte b = data[start + i];
                chars[2 * i] = Digits[b >> 4];
                chars[2 * i + 1] = Digits[b & 15];
            }
            return new string(chars);
        }

        public static byte[] Decode(string hex)
        {
            if (hex == null || hex.Length % 2 != 0) throw new FormatException("not hex: " + hex);
            var data = new byte[hex.Length / 2];
            for (int i = 0; i < data.Length; i++)
            {
                data[i] = (byte)(Nibble(hex[2 * i]) << 4 | Nibble(hex[2 * i + 1]));
            }
            return data;
        }

        private static int Nibble(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            throw new FormatException("not a hex digit: " + c);
        }
    }

    // ---- floats as tagged-JSON tokens (exact: bits survive) ----

    public static class FloatTokens
    {
        private const ulong CanonicalNan64 = 0x7ff8000000000000;
        private const uint CanonicalNan32 = 0x7fc00000;

        // Bits and values through byte arrays: the same on every runtime and byte order.
        public static double F64(ulong bits)
        {
            return BitConverter.Int64BitsToDouble((long)bits);
        }

        public static ulong Bits(double x)
        {
            return (ulong)BitConverter.DoubleToInt64Bits(x);
        }

        public static float F32(uint bits)
        {
            return BitConverter.ToSingle(BitConverter.GetBytes(bits), 0);
        }

        public static uint Bits(float x)
        {
            return BitConverter.ToUInt32(BitConverter.GetBytes(x), 0);
        }

        public static string F32Bits(uint bits)
        {
            return "0x" + bits.ToString("x8", CultureInfo.InvariantCulture);
        }

        public static string F64Token(double x)
        {
            if (double.IsNaN(x)) return "0x" + Bits(x).ToString("x16", CultureInfo.InvariantCulture);
            if (double.IsPositiveInfinity(x)) return "inf";
            if (double.IsNegativeInfinity(x)) return "-inf";
            if (x == 0) return (Bits(x) >> 63) != 0 ? "-0" : "0";
            return Shortest(x);
        }

        // The shortest decimal that reads back to the same double. "R" is that on .NET Core 3.0
        // and later; older runtimes (Mono among them) may write a longer one, or one that reads
        // back to another double: the shortest of the formats that read back, else the bits.
        private static string Shortest(double x)
        {
            string best = null;
            foreach (string format in new[] { "R", "G15", "G16", "G17" })
            {
                string s = x.ToString(format, CultureInfo.InvariantCulture);
                double back;
                bool exact = ExactDecimal.TryParse(s, out back) && Bits(back) == Bits(x);
                if (exact && (best == null || s.Length < best.Length)) best = s;
            }
            if (best == null) return "0x" + Bits(x).ToString("x16", CultureInfo.InvariantCulture);
            return best.Replace("E+", "e").Replace("E", "e");
        }

        private static double ParseDecimal(string token)
        {
            double x;
            if (!ExactDecimal.TryParse(token, out x)) throw new SkipException("float token \"" + token + "\" is not read here");
            return x;
        }

        /// <summary>A token's value, whatever its spelling (decimal or 0x bits of an f32 or an f64).</summary>
        public static double Value(string token)
        {
            if (token.StartsWith("0x", StringComparison.Ordinal))
            {
                ulong bits = HexBits(token);
                return token.Length > 10 ? F64(bits) : F32((uint)bits);
            }
            switch (token)
            {
                case "nan": return double.NaN;
                case "inf": case "+inf": return double.PositiveInfinity;
                case "-inf": return double.NegativeInfinity;
                default: return ParseDecimal(token);
            }
        }

        /// <summary>The f64 bits a token stands for.</summary>
        public static ulong TokenBits64(string token)
        {
            if (token == null) throw new SkipException("a float token must be a string");
            if (token.StartsWith("0x", StringComparison.Ordinal)) return HexBits(token);
            if (token == "nan") return CanonicalNan64;
            return Bits(Value(token));
        }

        /// <summary>The f32 bits a token stands for (a decimal is rounded to f32).</summary>
        public static uint TokenBits32(string token)
        {
            if (token == null) throw new SkipException("a float token must be a string");
            if (token.StartsWith("0x", StringComparison.Ordinal)) return (uint)HexBits(token);
            if (token == "nan") return CanonicalNan32;
            return Bits((float)Value(token));
        }

        private static ulong HexBits(string token)
        {
            ulong bits;
            if (!ulong.TryParse(token.Substring(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out bits))
            {
                throw new SkipException("float token \"" + token + "\" is not read here");
            }
            return bits;
        }
    }

    /// <summary>What makes two Dictionary keys one key for the engines: equal values, so 0 and -0
    /// are one key and so are all NaNs; each float is compared by value, not by how it is spelled.</summary>
    public static class KeyIdentity
    {
        public static string Of(object node)
        {
            var sb = new StringBuilder();
            Append(sb, node);
            return sb.ToString();
        }

        private static void Append(StringBuilder sb, object node)
        {
            var list = node as List<object>;
            if (list != null)
            {
                sb.Append('[');
                foreach (object item in list)
                {
                    Append(sb, item);
                    sb.Append(',');
                }
                sb.Append(']');
                return;
            }
            var obj = node as JsonObject;
            if (obj == null)
            {
                Json.Write(sb, node);
                return;
            }
            string type = obj.Get("type") as string;
            if (type == "float" || type == "Vector2")
            {
                AppendFloats(sb, type, obj.Get("value"));
                return;
            }
            sb.Append('{');
            for (int i = 0; i < obj.Count; i++)
            {
                Json.WriteString(sb, obj.KeyAt(i));
                sb.Append(':');
                Append(sb, obj.ValueAt(i));
                sb.Append(',');
            }
            sb.Append('}');
        }

        // A float or a vector as its type and the f64 bits of its values, -0 as 0 and NaN as nan.
        private static void AppendFloats(StringBuilder sb, string type, object value)
        {
            var tokens = value as List<object> ?? new List<object> { value };
            sb.Append(type).Append('(');
            foreach (object token in tokens)
            {
                double x = FloatTokens.Value((string)token);
                if (double.IsNaN(x)) sb.Append("nan");
                else sb.Append(FloatTokens.Bits(x == 0 ? 0.0 : x).ToString("x16", CultureInfo.InvariantCulture));
                sb.Append(' ');
            }
            sb.Append(')');
        }
    }

    /// <summary>Reads a decimal exactly, rounded to the nearest double (ties to even): float tokens
    /// must come back bit for bit, and runtimes before .NET Core 3.0 (Mono among them) misround
    /// some decimals of 16 and 17 digits and read "-0" as 0.</summary>
    public static class ExactDecimal
    {
        private static readonly BigInteger TwoTo52 = BigInteger.One << 52;
        private static readonly BigInteger TwoTo53 = BigInteger.One << 53;

        public static bool TryParse(string s, out double value)
        {
            value = 0;
            bool negative;
            BigInteger digits;
            long exponent;
            if (!TrySplit(s, out negative, out digits, out exponent)) return false;
            double magnitude = Nearest(digits, exponent);
            value = negative ? -magnitude : magnitude;
            return true;
        }

        // "-12.5e3" is negative, 125 and 2: the value is digits × 10^exponent.
        private static bool TrySplit(string s, out bool negative, out BigInteger digits, out long exponent)
        {
            negative = false;
            digits = BigInteger.Zero;
            exponent = 0;
            int i = 0;
            if (i < s.Length && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
            var mantissa = new StringBuilder();
            bool point = false;
            for (; i < s.Length && s[i] != 'e' && s[i] != 'E'; i++)
            {
                if (s[i] == '.' && !point)
                {
                    point = true;
                }
                else if (s[i] >= '0' && s[i] <= '9')
                {
                    mantissa.Append(s[i]);
                    if (point) exponent--;
                }
                else
                {
                    return false;
                }
            }
            int e = 0;
            bool exponentOk = i == s.Length || int.TryParse(s.Substring(i + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out e);
            if (mantissa.Length == 0 || !exponentOk) return false;
            digits = BigInteger.Parse(mantissa.ToString(), CultureInfo.InvariantCulture);
            exponent += e;
            return true;
        }

        private static double Nearest(BigInteger digits, long exponent)
        {
            if (digits.IsZero) return 0;
            // Far outside the range of doubles, spare the big powers of ten.
            long magnitude = digits.ToString(CultureInfo.InvariantCulture).Length + exponent;
            if (magnitude > 310) return double.PositiveInfinity;
            if (magnitude < -330) return 0;
            BigInteger num = digits;
            BigInteger den = BigInteger.One;
            if (exponent >= 0) num *= BigInteger.Pow(10, (int)exponent);
            else den = BigInteger.Pow(10, (int)-exponent);
            // Scale the quotient by 2^-shift into 53 bits (fewer for a subnormal), then round.
            long shift = Math.Max(BitLength(num) - BitLength(den) - 53, -1074);
            while (true)
            {
                BigInteger a = shift < 0 ? num << (int)-shift : num;
                BigInteger b = shift > 0 ? den << (int)shift : den;
                BigInteger rest;
                BigInteger m = BigInteger.DivRem(a, b, out rest);
                if (m >= TwoTo53)
                {
                    shift++;
                    continue;
                }
                int half = (rest << 1).CompareTo(b);
                if (half > 0 || (half == 0 && !m.IsEven)) m += 1;
                if (m == TwoTo53)
                {
                    m = TwoTo52;
                    shift++;
                }
                return Compose((ulong)m, shift);
            }
        }

        // m × 2^shift, with m below 2^53 (and below 2^52 only for a subnormal).
        private static double Compose(ulong m, long shift)
        {
            long biased = shift + 1075;
            if (biased >= 2047) return double.PositiveInfinity;
            ulong bits = m < 1UL << 52 ? m : (ulong)biased << 52 | (m - (1UL << 52));
            return FloatTokens.F64(bits);
        }

        // BigInteger.GetBitLength is .NET 5 and later only.
        private static long BitLength(BigInteger x)
        {
            byte[] bytes = x.ToByteArray();
            int top = bytes.Length - 1;
            while (top > 0 && bytes[top] == 0) top--;
            long bits = 8L * top;
            for (int b = bytes[top]; b != 0; b >>= 1) bits++;
            return bits;
        }
    }
}
