//! The engine's request-level API: batches of decode, encode and sleep requests answered with
//! the engine's own results. Cases go through [`Engine`]'s [`Answerer`](crate::model::answerer::Answerer)
//! implementation, which is built on this.

use super::engine::Engine;
use super::requests::{
    Reply, decode_line, decode_result, encode_line, encode_result, plain_verdict, sleep_line,
};
use super::{DecodeRequest, DecodeResult, EncodeRequest, EncodeResult, Request, Response};
use gdmarshal::value::Variant;

impl Engine {
    /// Serves a mixed batch; one response per request, in order.
    pub fn run(&mut self, requests: &[Request<'_>]) -> Vec<Response> {
        let profile = self.info().profile;
        let lines: Vec<String> = requests
            .iter()
            .map(|r| match r {
                Request::Decode(d) => decode_line(d.bytes, d.allow_objects),
                Request::Encode(e) => encode_line(e.value, profile, false),
                Request::Sleep(t) => sleep_line(t.as_millis()),
            })
            .collect();
        let replies = self.exchange(&lines);
        requests
            .iter()
            .zip(replies)
            .map(|(r, a): (&Request, Reply)| match r {
                Request::Decode(_) => Response::Decode(decode_result(a, profile)),
                Request::Encode(e) => Response::Encode(encode_result(a, profile, e.full_objects)),
                Request::Sleep(_) => Response::Sleep(plain_verdict(a)),
            })
            .collect()
    }

    /// Decodes many inputs; one result per request, in order.
    pub fn decode_batch(&mut self, requests: &[DecodeRequest<'_>]) -> Vec<DecodeResult> {
        let lines: Vec<String> = requests
            .iter()
            .map(|d| decode_line(d.bytes, d.allow_objects))
            .collect();
        let profile = self.info().profile;
        self.exchange(&lines)
            .into_iter()
            .map(|a| decode_result(a, profile))
            .collect()
    }

    /// Builds and encodes many values; one result per request, in order.
    pub fn encode_batch(&mut self, requests: &[EncodeRequest<'_>]) -> Vec<EncodeResult> {
        let profile = self.info().profile;
        let lines: Vec<String> = requests
            .iter()
            .map(|e| encode_line(e.value, profile, false))
            .collect();
        let replies = self.exchange(&lines);
        replies
            .into_iter()
            .zip(requests)
            .map(|(a, e)| encode_result(a, profile, e.full_objects))
            .collect()
    }

    /// Decodes one input.
    pub fn decode(&mut self, bytes: &[u8], allow_objects: bool) -> DecodeResult {
        let mut r = self.decode_batch(&[DecodeRequest {
            bytes,
            allow_objects,
        }]);
        r.pop().expect("one result per request")
    }

    /// Builds and encodes one value.
    pub fn encode(&mut self, value: &Variant, full_objects: bool) -> EncodeResult {
        let mut r = self.encode_batch(&[EncodeRequest {
            value,
            full_objects,
        }]);
        r.pop().expect("one result per request")
    }
}
